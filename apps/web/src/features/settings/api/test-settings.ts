import type { BillingTestAnswer, MailTestAnswer, MailTestBody } from "@balcao/contract";
import { useMutation } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { closeGateOn } from "./get-settings";
import { gateHeaders } from "./settings-token";

/**
 * The settings' tests, with what the form holds (blank secret: the saved one, which the server
 * sends only to the saved address). Both sit behind the settings gate.
 */
export interface BillingTestBody {
  system?: "SGP" | "MK-AUTH";
  url?: string;
  app?: string;
  token?: string;
}

/** 'Testar conexão' of the billing system (SGP / MK-AUTH). */
export function useTestBillingConnection() {
  return useMutation({
    mutationFn: (body: BillingTestBody) => http.request<BillingTestAnswer>("POST", "/billing/test", { body, headers: gateHeaders() }),
    onError: (err: Error) => closeGateOn(err),
  });
}

/** 'Enviar e-mail de teste'. */
export function useTestMail() {
  return useMutation({
    mutationFn: (body: MailTestBody) => http.request<MailTestAnswer>("POST", "/email/test", { body, headers: gateHeaders() }),
    onError: (err: Error) => closeGateOn(err),
  });
}
