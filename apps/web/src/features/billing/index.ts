/** The billing system (SGP / MK-AUTH) in the chat: the customer panel of the contact drawer (the settings' connection test is the settings feature's). */
export { BillingPanel } from "./components/BillingPanel";
