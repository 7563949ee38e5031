/** Contacts: the screen, the contact form (also opened from a ticket) and the contacts query. */
export { useContact, useContacts } from "./api/contacts";
export { ContactDialog } from "./components/ContactDialog";
export { contactsMenu } from "./menu";
export { contactsRoutes } from "./routes";
