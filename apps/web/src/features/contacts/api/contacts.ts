import type { Contact, ContactBody, ContactsAnswer, ImportAnswer } from "@balcao/contract";
import { SEARCH_MIN_CHARS } from "@balcao/contract";
import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";
import { searchTerm } from "../../../lib/hooks";
import { removeFromPages, replaceInPages } from "../../../lib/infinite";

export const contactsKey = ["contacts"] as const;

/** Contacts, page by page; the search is sent from 3 typed characters. */
export const contactsQuery = (search: string) => {
  const searchParam = searchTerm(search, SEARCH_MIN_CHARS);
  return infiniteQueryOptions({
    queryKey: [...contactsKey, { searchParam }],
    queryFn: ({ pageParam, signal }) => http.get<ContactsAnswer>("/contacts", { searchParam, pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
};

export function useContacts(search: string) {
  return useInfiniteQuery(contactsQuery(search));
}

/** The `contact` socket event keeps every loaded contacts list current. */
export function useContactsLive() {
  const queryClient = useQueryClient();
  useSocketEvent("contact", (p) => {
    if (p.action === "update") {
      queryClient.setQueriesData<InfiniteData<ContactsAnswer>>({ queryKey: contactsKey }, (d) => replaceInPages(d, "contacts", p.contact));
    } else if (p.action === "delete") {
      queryClient.setQueriesData<InfiniteData<ContactsAnswer>>({ queryKey: contactsKey }, (d) =>
        removeFromPages(d, "contacts", p.contactId),
      );
    } else {
      // create, import, deleteAll: the order and the pages change; fetch again.
      void queryClient.invalidateQueries({ queryKey: contactsKey });
    }
  });
}

export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: ContactBody }) =>
      id ? http.put<Contact>(`/contacts/${id}`, body) : http.post<Contact>("/contacts", body),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`/contacts/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

export function useDeleteAllContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.delete("/contacts/all"),
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
