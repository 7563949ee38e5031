/** "Meu perfil": the signed-in user's own name, password and preferences (language, theme, notification sound). */
export {
  resolveDark,
  useKeepLanguage,
  useLanguageAtSignIn,
  useMyProfile,
  useNotificationSound,
  useThemePreference,
} from "./api/profile";
export { profileRoutes } from "./routes";
