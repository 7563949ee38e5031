/**
 * The answers' writer (apps/server/src/http/serializer.ts): a page of 40 tickets and one of 40 contacts, as the
 * side-by-side's lists answer them, written by the zod encode + JSON.stringify (before) and by the compiled writer
 * (the product's default in production). In process, no database: µs per answer. Prints figures, asserts nothing.
 *   npm run bench -- serializer
 */
import { isDeepStrictEqual } from "node:util";
import { contactsAnswer, ticketsAnswer } from "@balcao/contract";
import { z } from "zod";
import { compile } from "../apps/server/src/http/serializer.js";

const PHRASES = ["o técnico pode vir no sábado?", "minha internet caiu de novo", "qual o valor da fatura?", "obrigado, abraço!"];
const stamp = (i: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, 0) - i * 60_000).toISOString();

function contact(i: number) {
  return {
    id: i,
    name: `Cliente ${i} Abreu`,
    number: `55349${String(i).padStart(8, "0")}`,
    lid: null,
    email: "",
    profilePicUrl: "",
    isGroup: false,
  };
}

function ticket(i: number) {
  return {
    id: i,
    status: "open",
    lastMessage: PHRASES[i % PHRASES.length],
    lastMessageFailed: false,
    unreadMessages: i % 3,
    isGroup: false,
    transf: false,
    contactId: i,
    contact: contact(i),
    userId: 5,
    user: { id: 5, name: "Agente 4" },
    queueId: 3,
    queue: { id: 3, name: "Fila 3", color: "#895440" },
    whatsappId: 1,
    whatsapp: { id: 1, name: "Suporte" },
    tags: i % 4 ? [] : [{ id: 1, name: "VIP", color: "#ff0000" }],
    createdAt: stamp(i + 100),
    updatedAt: stamp(i),
    queuePosition: null,
    incidentIds: [],
  };
}

function fullContact(i: number) {
  return {
    ...contact(i),
    erasedAt: null,
    createdAt: stamp(i),
    updatedAt: stamp(i),
    extraInfo: [{ id: i, name: "CPF", value: "529.982.247-25" }],
    tags: [],
  };
}

function time(label: string, write: () => string) {
  for (let i = 0; i < 3000; i++) write();
  const runs = 20_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) write();
  const us = Number(process.hrtime.bigint() - start) / runs / 1000;
  console.log(`  ${label.padEnd(34)} ${us.toFixed(1).padStart(6)} µs per answer`);
}

export function serializerBench() {
  console.log("\n== serializer (in process: one answer written, µs) ==");
  const cases = [
    [
      "GET /tickets, 40 tickets",
      ticketsAnswer,
      { tickets: Array.from({ length: 40 }, (_, i) => ticket(i + 1)), count: 5000, hasMore: true },
    ],
    [
      "GET /contacts, 40 contacts",
      contactsAnswer,
      { contacts: Array.from({ length: 40 }, (_, i) => fullContact(i + 1)), count: 200, hasMore: true },
    ],
  ] as const;
  for (const [label, schema, data] of cases) {
    const compiled = compile(schema as z.ZodType);
    if (!compiled) throw new Error(`${label}: the schema did not compile`);
    const before = () => JSON.stringify(z.encode(schema as z.ZodType, data));
    if (!isDeepStrictEqual(JSON.parse(before()), JSON.parse(compiled(data)))) throw new Error(`${label}: the two writers differ`);
    console.log(`${label} (${before().length} bytes)`);
    time("zod encode + JSON.stringify", before);
    time("compiled (default)", () => compiled(data));
  }
}
