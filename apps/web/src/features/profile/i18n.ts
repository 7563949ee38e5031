import { addFeatureTexts } from "../../locales";

/** The "Meu perfil" screen (pt-BR first). */
const pt = {
  profile: {
    title: "Meu perfil",
    account: "Conta",
    name: "Nome",
    email: "E-mail",
    emailHelp: "O e-mail, o perfil e os setores são alterados por um administrador.",
    password: "Senha",
    passwordHelp: "Para trocar a senha, informe a senha atual. Deixe em branco para manter a atual.",
    currentPassword: "Senha atual",
    newPassword: "Nova senha",
    confirmPassword: "Confirmar nova senha",
    passwordNote: "Ao trocar a senha, as suas outras sessões (outros navegadores e aparelhos) são encerradas.",
    preferences: "Preferências",
    language: "Idioma",
    theme: "Tema",
    themes: { default: "Padrão da instalação ({{current}})", light: "Claro", dark: "Escuro" },
    installation: { light: "claro", dark: "escuro" },
    sound: "Som de notificação",
    soundHelp: "Um aviso sonoro quando chega mensagem nos seus atendimentos ou quando alguém menciona você.",
    save: "Salvar",
    saved: "Perfil salvo.",
    passwordChanged: "Senha alterada. As suas outras sessões foram encerradas.",
  },
};

const en: typeof pt = {
  profile: {
    title: "My profile",
    account: "Account",
    name: "Name",
    email: "Email",
    emailHelp: "Your email, profile and departments are changed by an administrator.",
    password: "Password",
    passwordHelp: "To change your password, type the current one. Leave blank to keep it.",
    currentPassword: "Current password",
    newPassword: "New password",
    confirmPassword: "Confirm new password",
    passwordNote: "Changing your password signs you out of your other sessions (other browsers and devices).",
    preferences: "Preferences",
    language: "Language",
    theme: "Theme",
    themes: { default: "Installation default ({{current}})", light: "Light", dark: "Dark" },
    installation: { light: "light", dark: "dark" },
    sound: "Notification sound",
    soundHelp: "A sound when a message arrives on your tickets or someone mentions you.",
    save: "Save",
    saved: "Profile saved.",
    passwordChanged: "Password changed. Your other sessions were signed out.",
  },
};

const es: typeof pt = {
  profile: {
    title: "Mi perfil",
    account: "Cuenta",
    name: "Nombre",
    email: "Correo electrónico",
    emailHelp: "El correo, el perfil y los sectores los cambia un administrador.",
    password: "Contraseña",
    passwordHelp: "Para cambiar la contraseña, escriba la actual. Déjela en blanco para mantenerla.",
    currentPassword: "Contraseña actual",
    newPassword: "Nueva contraseña",
    confirmPassword: "Confirmar nueva contraseña",
    passwordNote: "Al cambiar la contraseña se cierran sus otras sesiones (otros navegadores y dispositivos).",
    preferences: "Preferencias",
    language: "Idioma",
    theme: "Tema",
    themes: { default: "Predeterminado de la instalación ({{current}})", light: "Claro", dark: "Oscuro" },
    installation: { light: "claro", dark: "oscuro" },
    sound: "Sonido de notificación",
    soundHelp: "Un aviso sonoro cuando llega un mensaje a sus atenciones o alguien lo menciona.",
    save: "Guardar",
    saved: "Perfil guardado.",
    passwordChanged: "Contraseña cambiada. Sus otras sesiones se cerraron.",
  },
};

addFeatureTexts({ "pt-BR": pt, en, es });
