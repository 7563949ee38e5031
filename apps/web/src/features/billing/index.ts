/** The billing system (SGP / MK-AUTH) in the chat: the customer panel of the contact drawer, and the settings' connection test. */
export { useTestBillingConnection } from "./api/billing";
export { BillingPanel } from "./components/BillingPanel";
