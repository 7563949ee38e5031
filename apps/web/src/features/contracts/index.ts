/** Contracts: the admins' screen, its drawer entry, and the chat's Contrato action with its dialog. */
export { contractsMenu } from "./menu";
export { contractsRoutes } from "./routes";
export { ContractAction } from "./components/ContractButton";
