import type { Contact, ContactBody, ContactsAnswer, ImportAnswer, Whatsapp } from "@balcao/contract";
import { SEARCH_MIN_CHARS } from "@balcao/contract";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { shareNewer } from "../../../lib/live-merge";
import { useSocketEvent } from "../../../lib/socket";
import { pagedQuery, useDeleteEntity, useLivePages, useSaveEntity } from "../../../lib/entity-api";
import { searchTerm } from "../../../lib/hooks";

export const contactsKey = ["contacts"] as const;

/** Contacts, page by page; the search is sent from 3 typed characters. */
export const contactsQuery = (search: string) => pagedQuery<ContactsAnswer>(contactsKey, "/contacts", searchTerm(search, SEARCH_MIN_CHARS));

export function useContacts(search: string) {
  return useInfiniteQuery(contactsQuery(search));
}

/** The `contact` socket event keeps every loaded contacts list current. */
export function useContactsLive() {
  useLivePages("contact", contactsKey, "contacts", (p) =>
    // create, import, deleteAll: the order and the pages change; fetch again.
    p.action === "update" ? { replace: p.contact } : p.action === "delete" ? { remove: p.contactId } : "refetch",
  );
}

/** One contact (GET /contacts/{id}) while `enabled`, fetched again when the `contact` event says it changed. */
export function useContact(contactId: number, enabled: boolean) {
  const q = useQuery({
    queryKey: [...contactsKey, "one", contactId],
    queryFn: () => http.get<Contact>(`/contacts/${contactId}`),
    enabled,
  });
  useSocketEvent("contact", (p) => {
    if (p.action === "update" && p.contact.id === contactId) void q.refetch();
  });
  return q;
}

export const useSaveContact = () => useSaveEntity<ContactBody, Contact>("/contacts", contactsKey);

export const useDeleteContact = () => useDeleteEntity("/contacts", contactsKey);

export function useDeleteAllContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.delete("/contacts/all"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

/** The connections whose phone's contacts may be imported (the same list and key as the connections screen). */
export function useImportConnections(enabled: boolean) {
  return useQuery({
    queryKey: ["whatsapp"],
    queryFn: ({ signal }) => http.get<Whatsapp[]>("/whatsapp/", undefined, signal),
    structuralSharing: shareNewer,
    enabled,
    meta: { silent: true },
  });
}

/** POST /contacts/import without a file: the contacts a connection's phone knows (the default one unless chosen). */
export function useImportPhoneContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (whatsappId?: number) => http.post<ImportAnswer>("/contacts/import", whatsappId ? { whatsappId } : undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

export function useImportContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file);
      return http.upload<ImportAnswer>("/contacts/import", form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}
