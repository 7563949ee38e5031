/** The server-wide settings, kept live; the settings screen; the tab's favicon. */
export { useSettings, useSettingsLive, useUpdateSetting } from "./api/get-settings";
export { DarkModeToggle } from "./components/DarkModeToggle";
export { FaviconSync } from "./components/FaviconSync";
export { settingsMenu } from "./menu";
export { settingsRoutes } from "./routes";
