/** The server-wide settings, kept live; the settings screen; the tab's favicon. */
export { useSettings, useSettingsLive, useUpdateSetting } from "./api/get-settings";
export { resolvePublicUrl, usePublicUrl } from "./api/public-url";
export { DarkModeToggle } from "./components/DarkModeToggle";
export { FaviconSync } from "./components/FaviconSync";
export { settingsMenu } from "./menu";
export { settingsRoutes } from "./routes";
/** The settings screen's texts (each setting's label and choices), for a screen that names settings: the audit log. */
export const loadSettingsTexts = () => import("./i18n");
