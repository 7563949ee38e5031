import type { Contact, ContactsAnswer } from "@balcao/contract";
import { InfiniteQueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { type PagesChange, livePages, pagedQuery } from "./entity-api";
import { flattenPages } from "./infinite";
import { answer, cacheUnderTest } from "./query-testing";

// The paged lists kept live by events (contacts, users, quick answers): a page being read when an
// event lands may answer what the server held before it; the list ends on the server's state.

type Event = { action: "update"; contact: Contact } | { action: "delete"; contactId: number };
const change = (p: Event): PagesChange<Contact> => (p.action === "update" ? { replace: p.contact } : { remove: p.contactId });

function contact(id: number, name: string): Contact {
  return {
    id,
    name,
    number: `5534999${id}`,
    lid: null,
    email: "",
    profilePicUrl: "",
    isGroup: false,
    extraInfo: [],
    tags: [],
    createdAt: "2026-11-28T10:00:00.000Z",
    updatedAt: "2026-11-28T10:00:00.000Z",
  };
}
const page = (contacts: Contact[]): ContactsAnswer => ({ contacts, count: contacts.length, hasMore: false });

const t = cacheUnderTest();

/** The Contacts screen searching "ana"; GET /contacts answers each read when the test says. */
function contactsScreen() {
  const reads: { answer: (a: ContactsAnswer) => void }[] = [];
  const query = pagedQuery<ContactsAnswer>(["contacts"], "/contacts", "ana");
  const observer = new InfiniteQueryObserver(t.client, {
    ...query,
    queryFn: () => new Promise<ContactsAnswer>((answer) => reads.push({ answer })),
  });
  t.stops.push(observer.subscribe(() => undefined));
  const names = () => flattenPages<"contacts", Contact>(t.client.getQueryData(query.queryKey), "contacts").map((c) => c.name);
  const live = livePages(t.client, ["contacts"], "contacts", change);
  t.stops.push(live.dispose);
  return { reads, names, live, key: query.queryKey };
}

describe("paged lists beside a read already under way", () => {
  it("a contact renamed while its page is being read shows the new name once the read after the event lands", async () => {
    const { reads, names, live, key } = contactsScreen();
    await vi.advanceTimersByTimeAsync(0);
    await answer(reads[0], page([contact(1, "Ana Souza"), contact(2, "Mariana")]));
    // a reconnect reads the list again; the server answers it slowly
    void t.client.refetchQueries({ queryKey: key });
    await vi.advanceTimersByTimeAsync(0);
    live.apply({ action: "update", contact: contact(1, "Ana Souza Lima") });
    expect(names()).toEqual(["Ana Souza Lima", "Mariana"]);
    await answer(reads[1], page([contact(1, "Ana Souza"), contact(2, "Mariana")]));
    expect(names()).toEqual(["Ana Souza", "Mariana"]);
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(3);
    await answer(reads[2], page([contact(1, "Ana Souza Lima"), contact(2, "Mariana")]));
    expect(names()).toEqual(["Ana Souza Lima", "Mariana"]);
  });

  it("events while nothing is being read change the pages, fetch nothing, and leave a single contact cached under the same key as it is", async () => {
    const { reads, names, live } = contactsScreen();
    await vi.advanceTimersByTimeAsync(0);
    await answer(reads[0], page([contact(1, "Ana Souza"), contact(2, "Mariana")]));
    // the contact drawer of a chat cached one contact under ["contacts", "one", id]
    t.client.setQueryData(["contacts", "one", 1], contact(1, "Ana Souza"));
    live.apply({ action: "update", contact: contact(1, "Ana Souza Lima") });
    live.apply({ action: "delete", contactId: 2 });
    expect(names()).toEqual(["Ana Souza Lima"]);
    expect(t.client.getQueryData<Contact>(["contacts", "one", 1])?.name).toBe("Ana Souza");
    await vi.advanceTimersByTimeAsync(2000);
    expect(reads).toHaveLength(1);
  });
});
