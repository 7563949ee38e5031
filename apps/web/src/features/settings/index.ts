/** The server-wide settings, kept live. */
export { useSettings, useUpdateSetting } from "./api/get-settings";
export { DarkModeToggle } from "./components/DarkModeToggle";
