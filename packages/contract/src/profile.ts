import { z } from "zod";
import { passwordField } from "./api.js";
import { profileSchema } from "./entities.js";
import { MSG, requiredText } from "./validation.js";

/** The languages of the interface a user may keep on their account (the web's LANGUAGES). */
export const USER_LANGUAGES = ["pt-BR", "en", "es"] as const;
export const userLanguageSchema = z.enum(USER_LANGUAGES);
export type UserLanguage = z.infer<typeof userLanguageSchema>;

/** A user's own theme: "default" follows the installation's (the darkMode setting), the others win over it. */
export const USER_THEMES = ["default", "light", "dark"] as const;
export const userThemeSchema = z.enum(USER_THEMES);
export type UserTheme = z.infer<typeof userThemeSchema>;

/** GET /profile: the signed-in user's own account ("Meu perfil") and preferences. */
export const myProfileSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileSchema,
  /** null: never chosen (the browser's or the device's choice stays) */
  language: userLanguageSchema.nullable(),
  theme: userThemeSchema,
  notificationSound: z.boolean(),
});
export type MyProfile = z.infer<typeof myProfileSchema>;

/**
 * PUT /profile: what a user may change of their own account, and nothing else (an unknown key, such
 * as `profile`, `email` or `queueIds`, is refused). A new password (the users' rules) needs the
 * current one; empty or absent keeps it.
 */
export const myProfileBody = z
  .strictObject({
    name: requiredText(2, 50).optional(),
    currentPassword: z.string().max(200, MSG.tooLong).optional(),
    password: z.union([z.literal(""), passwordField]).optional(),
    language: userLanguageSchema.optional(),
    theme: userThemeSchema.optional(),
    notificationSound: z.boolean().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.password && !b.currentPassword) ctx.addIssue({ code: "custom", path: ["currentPassword"], message: MSG.required });
  });
export type MyProfileBody = z.input<typeof myProfileBody>;

/** PUT /profile answers the saved profile; after a new password, also the new access token of this session (every other ended). */
export const myProfileAnswer = myProfileSchema.extend({ token: z.string().optional() });
export type MyProfileAnswer = z.infer<typeof myProfileAnswer>;
