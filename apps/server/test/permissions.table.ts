/**
 * The route × role table of permissions.test.ts: every route of the OpenAPI document (and the
 * hidden ones that matter) with what each caller gets. A route without a row fails that test:
 * add its row here when you add a route.
 *
 * Callers: `anon` (no token); `own`: an agent of queue A acting on queue A's things (its ticket,
 * contact, messages; itself for /users/{id}); `other`: the same agent on queue B's things (another
 * user for /users/{id}); `superv`: a supervisor of queue A, and `admin`, both on queue B's things.
 * Expectations: "ok" = allowed (any answer but 401/403, never 5xx), or the exact status.
 */

export type Caller = "anon" | "own" | "other" | "superv" | "admin";
export type Expect = "ok" | 401 | 403 | 404;
export type Target = "own" | "other";

/** What the test builds once and the rows refer to. */
export interface Fixture {
  queue: Record<Target, number>;
  ticket: Record<Target, number>;
  contact: Record<Target, { id: number; number: string }>;
  message: Record<Target, number>;
  user: Record<Target, number>;
  whatsapp: Record<Target, number>;
  /** a contract sent from each ticket */
  contract: Record<Target, number>;
  quickAnswer: number;
  tag: number;
  agentEmail: string;
  seq: () => number;
}

export interface Row {
  expect: Record<Caller, Expect>;
  /** a JSON body valid for an allowed caller (so a refusal, when expected, comes from the rule, not the schema) */
  body?: (f: Fixture, target: Target) => unknown;
  /** a CSV sent as multipart field "file" */
  csv?: true;
  /** the route destroys its target: each call gets a fresh one of this kind */
  fresh?: "user" | "queue" | "contact" | "quickAnswer" | "tag" | "ticket" | "whatsapp";
  /** the call ends the caller's session: it is made with a fresh sign-in */
  freshSession?: true;
  /** run after every other row (it wipes what others use, or ends the callers' sessions) */
  last?: true;
}

const all = (e: Expect): Record<Caller, Expect> => ({ anon: e, own: e, other: e, superv: e, admin: e });
/** anyone, signed in or not */
const PUBLIC = all("ok");
const SIGNED_IN: Record<Caller, Expect> = { anon: 401, own: "ok", other: "ok", superv: "ok", admin: "ok" };
const ADMINS: Record<Caller, Expect> = { anon: 401, own: 403, other: 403, superv: 403, admin: "ok" };
const SUPERVISORS: Record<Caller, Expect> = { anon: 401, own: 403, other: 403, superv: "ok", admin: "ok" };
/** tickets and what hangs off them: an agent's queues, admins all (a supervisor of queue A does not see queue B's tickets) */
const TICKET_SCOPED: Record<Caller, Expect> = { anon: 401, own: "ok", other: 403, superv: 403, admin: "ok" };
/** contacts: an agent's queues' contacts, supervisors and admins all */
const CONTACT_SCOPED: Record<Caller, Expect> = { anon: 401, own: "ok", other: 403, superv: "ok", admin: "ok" };

const agentLogin = (f: Fixture) => ({ email: f.agentEmail, password: "agent-pass" });

export const PERMISSIONS: Record<string, Row> = {
  // auth
  "POST /auth/login": { expect: PUBLIC, body: agentLogin },
  "POST /auth/refresh_token": { expect: all(401) }, // the refresh cookie is the credential; none is sent here
  "DELETE /auth/logout": { expect: { ...PUBLIC }, freshSession: true, last: true }, // ends every session of the caller
  "POST /auth/signup": { expect: all(403), body: (f) => ({ name: "Novo", email: `novo${f.seq()}@x.com`, password: "12345" }) }, // userCreation is off by default

  // users
  "GET /users": { expect: SIGNED_IN },
  "POST /users": { expect: ADMINS, body: (f) => ({ name: "Nova Pessoa", email: `p${f.seq()}@x.com`, password: "12345" }) },
  "GET /users/{id}": { expect: SIGNED_IN },
  "PUT /users/{id}": { expect: { anon: 401, own: "ok", other: 403, superv: 403, admin: "ok" }, body: () => ({ name: "Nome Trocado" }) },
  "DELETE /users/{id}": { expect: ADMINS, fresh: "user" },
  // "Meu perfil": anyone signed in, on their own account only (the id is the session's)
  "GET /profile": { expect: SIGNED_IN },
  "PUT /profile": { expect: SIGNED_IN, body: () => ({ name: "Nome Próprio", theme: "dark", notificationSound: false }) },

  // incidents (outage mode, issue 32 §1): everyone reads them (the banner); admins and supervisors open, change and close
  "GET /incidents": { expect: SIGNED_IN },
  "GET /incidents/{id}": { expect: SIGNED_IN },
  "POST /incidents": {
    expect: SUPERVISORS,
    body: (f) => ({ title: `Queda ${f.seq()}`, message: "Estamos com instabilidade na sua região." }),
  },
  "PUT /incidents/{id}": { expect: SUPERVISORS, body: () => ({ area: "Centro" }) },
  "POST /incidents/{id}/close": { expect: SUPERVISORS, body: () => ({}) },

  // queues
  "GET /queue": { expect: SIGNED_IN },
  "POST /queue": { expect: ADMINS, body: (f) => ({ name: `Fila ${f.seq()}`, color: `#${(0x100000 + f.seq()).toString(16)}` }) },
  "GET /queue/{id}": { expect: SIGNED_IN },
  "PUT /queue/{id}": { expect: ADMINS, body: () => ({ greetingMessage: "Olá" }) },
  "DELETE /queue/{id}": { expect: ADMINS, fresh: "queue" },

  // contacts
  "GET /contacts": { expect: SIGNED_IN },
  "POST /contacts": { expect: SIGNED_IN, body: (f) => ({ name: "Contato Novo", number: `55119${String(f.seq()).padStart(8, "0")}` }) },
  "GET /contacts/{id}": { expect: CONTACT_SCOPED },
  "PUT /contacts/{id}": { expect: CONTACT_SCOPED, body: () => ({ email: "editado@example.com" }) },
  "DELETE /contacts/{id}": { expect: ADMINS, fresh: "contact" },
  "GET /contacts/{id}/audit": { expect: SUPERVISORS },
  // LGPD (admins): the contact's data as a ZIP, its erasure
  "GET /contacts/{id}/export": { expect: ADMINS },
  "POST /contacts/{id}/erase": { expect: ADMINS, fresh: "contact" },
  // the audit log (admins; nothing writes it through a route)
  "GET /audit": { expect: ADMINS },
  "GET /audit/export": { expect: ADMINS },
  "POST /contact": { expect: CONTACT_SCOPED, body: (f, target) => ({ name: "Pelo Número", number: f.contact[target].number }) },
  "DELETE /contacts/all": { expect: ADMINS, last: true },
  "POST /contacts/import": { expect: SUPERVISORS, csv: true },

  // quick answers: shared by everyone signed in
  "GET /quickAnswers": { expect: SIGNED_IN },
  "POST /quickAnswers": { expect: SIGNED_IN, body: (f) => ({ shortcut: `atalho${f.seq()}`, message: "Mensagem rápida" }) },
  "GET /quickAnswers/{id}": { expect: SIGNED_IN },
  "PUT /quickAnswers/{id}": { expect: SIGNED_IN, body: () => ({ message: "Mensagem trocada" }) },
  "DELETE /quickAnswers/{id}": { expect: SIGNED_IN, fresh: "quickAnswer" },

  // settings
  // admins read every key; agents and supervisors only AGENT_SETTING_KEYS (settings-secrets.test.ts)
  "GET /settings": { expect: SIGNED_IN },
  // the public address and the Cloud webhook URL built on it (the API page's examples read it too)
  "GET /settings/public-url": { expect: SIGNED_IN },
  "PUT /settings/{key}": { expect: ADMINS, body: () => ({ value: "smtp.example.com" }) },
  "POST /settings/unlock": { expect: ADMINS, body: () => ({ password: "admin123" }) },
  "POST /settings/userApiToken": { expect: ADMINS },
  "POST /upload/{key}": { expect: ADMINS },
  "POST /email/upload": { expect: ADMINS },
  // the form's mail_* values may come along; the saved password goes only to the saved server (settings-mail.test.ts)
  "POST /email/test": { expect: ADMINS, body: () => ({ to: "teste@example.com" }) },
  "GET /branding/{name}": { expect: PUBLIC },
  "GET /colors": { expect: PUBLIC },

  // tags
  "GET /tags": { expect: SIGNED_IN },
  "POST /tags": { expect: ADMINS, body: (f) => ({ name: `Etiqueta ${f.seq()}`, color: "#123456" }) },
  "PUT /tags/{id}": { expect: ADMINS, body: () => ({ color: "#654321" }) },
  "DELETE /tags/{id}": { expect: ADMINS, fresh: "tag" },

  // connections
  "GET /whatsapp": { expect: SIGNED_IN },
  "POST /whatsapp": { expect: ADMINS, body: (f) => ({ name: `Conexão ${f.seq()}`, type: "simulator" }) },
  "GET /whatsapp/{id}": { expect: SIGNED_IN },
  "PUT /whatsapp/{id}": { expect: ADMINS, body: () => ({ farewellMessage: "Tchau" }) },
  "DELETE /whatsapp/{id}": { expect: ADMINS, fresh: "whatsapp" },
  "POST /whatsapp/{id}/token": { expect: ADMINS },
  "POST /whatsappsession/{id}": { expect: ADMINS },
  // WhatsApp Cloud API (issue 29): Meta's webhook is public, its verify token and signature are the
  // credentials (none here: 403 / 401 for everyone); templates for anyone signed in (400 on a non-Cloud connection)
  "GET /webhooks/whatsapp": { expect: all(403) },
  "POST /webhooks/whatsapp": { expect: all(401), body: () => ({ object: "whatsapp_business_account", entry: [] }) },
  "GET /whatsapp/{id}/templates": { expect: SIGNED_IN },
  "GET /tickets/{id}/window": { expect: TICKET_SCOPED },
  "PUT /whatsappsession/{id}": { expect: ADMINS },
  "DELETE /whatsappsession/{id}": { expect: ADMINS },
  "GET /whatsapp/{id}/health": { expect: ADMINS },
  "POST /whatsapp/{id}/health/resume": { expect: ADMINS },
  "GET /typebot/settings/{id}": { expect: ADMINS },
  // a new baseUrl needs the key typed when one is saved (bots-typebot.test.ts)
  "PUT /typebot/settings/{id}": { expect: ADMINS, body: () => ({ enabled: false, baseUrl: "", slug: "" }) },

  // tickets
  "GET /tickets": { expect: SIGNED_IN },
  "POST /tickets": { expect: CONTACT_SCOPED, body: (f, target) => ({ contactId: f.contact[target].id, status: "open" }) },
  "GET /tickets/{id}": { expect: TICKET_SCOPED },
  "PUT /tickets/{id}": { expect: TICKET_SCOPED, body: () => ({ transf: false }) },
  "DELETE /tickets/{id}": { expect: ADMINS, fresh: "ticket" },
  "GET /tickets/{id}/tags": { expect: TICKET_SCOPED },
  "POST /tickets/{id}/tags": { expect: TICKET_SCOPED, body: (f) => ({ tagId: f.tag }) },
  "PUT /tickets/{id}/tags": { expect: TICKET_SCOPED, body: (f) => ({ tagIds: [f.tag] }) },
  "DELETE /tickets/{id}/tags/{tagId}": { expect: TICKET_SCOPED },

  // messages
  "GET /messages/{ticketId}": { expect: TICKET_SCOPED },
  "POST /messages/{ticketId}": { expect: TICKET_SCOPED, body: () => ({ body: "mensagem do teste de permissões" }) },
  "DELETE /messages/{id}": { expect: TICKET_SCOPED },
  // 'Reenviar' (the own message did not fail: allowed callers get 409, refusals 403)
  "POST /messages/{id}/resend": { expect: TICKET_SCOPED },
  "POST /messages/{ticketId}/read": { expect: TICKET_SCOPED },
  "POST /digitando/{ticketId}": { expect: TICKET_SCOPED },
  "POST /digitando/stop/{ticketId}": { expect: TICKET_SCOPED },
  "GET /media/{key}": { expect: PUBLIC }, // the unguessable key is the capability (<img> tags carry no token)

  // contracts (issue 20): lists and files by the ticket's visibility, templates written by admins; the
  // signing routes are public: the link's token is the credential (an unknown one answers 410)
  "GET /api/contratos": { expect: SIGNED_IN },
  "POST /api/contratos": {
    expect: TICKET_SCOPED,
    body: (f, target) => ({ ticketId: f.ticket[target], nome: "Maria da Silva", email: "", cpf: "529.982.247-25" }),
  },
  "GET /api/contratos/{id}": { expect: TICKET_SCOPED },
  "GET /api/contratos/{id}/arquivo": { expect: TICKET_SCOPED },
  "DELETE /api/contratos/{id}": { expect: TICKET_SCOPED },
  "GET /api/contratos/modelos": { expect: SIGNED_IN },
  "POST /api/contratos/modelos": { expect: ADMINS, body: (f) => ({ titulo: `Modelo ${f.seq()}`, corpo: "Eu, {nome}, aceito." }) },
  "PUT /api/contratos/modelos/{id}": { expect: ADMINS, body: () => ({ titulo: "Modelo", corpo: "Eu, {nome}, aceito." }) },
  "DELETE /api/contratos/modelos/{id}": { expect: ADMINS },
  "GET /assinar/{token}": { expect: PUBLIC },
  "GET /assinar/{token}/documento.pdf": { expect: PUBLIC },
  "POST /assinar/{token}/documento": { expect: PUBLIC, body: () => ({ cpf5: "12345" }) },
  "POST /assinar/{token}/cpf": { expect: PUBLIC, body: () => ({ cpf5: "12345" }) },
  "POST /assinar/{token}/aceite": {
    expect: PUBLIC,
    body: () => ({ cpf5: "12345", nome: "Maria da Silva", aceito: true, documentoSha256: "0".repeat(64) }),
  },
  // billing (SGP / MK-AUTH): the panel for who may open the ticket, actions for who may write in it, the settings' test for admins
  // (not configured in this test: an allowed caller gets 409 ERR_BILLING_NOT_CONFIGURED, after the permission check)
  "GET /billing/{ticketId}/customer": { expect: TICKET_SCOPED },
  "POST /billing/{ticketId}/send-invoice": { expect: TICKET_SCOPED, body: () => ({ contractId: "1", invoiceId: "1" }) },
  "POST /billing/{ticketId}/send-pix": { expect: TICKET_SCOPED, body: () => ({ contractId: "1", invoiceId: "1" }) },
  "POST /billing/{ticketId}/unlock": { expect: TICKET_SCOPED, body: () => ({ contractId: "1", confirm: true }) },
  // behind the settings gate too (settings-gate.test.ts); the saved token only to the saved URL (settings-secrets.test.ts)
  "POST /billing/test": { expect: ADMINS, body: () => ({}) },
  // AI assist: as reading the ticket (off by default here: 404 ERR_AI_DISABLED after the ticket check); the settings' test and the call record for admins
  "POST /tickets/{ticketId}/ai/suggestions": { expect: TICKET_SCOPED, body: () => ({}) },
  "POST /tickets/{ticketId}/ai/summary": { expect: TICKET_SCOPED, body: () => ({}) },
  // a closed local port: the test call fails at once, nothing leaves the machine
  "POST /ai/test": { expect: ADMINS, body: () => ({ baseUrl: "http://127.0.0.1:9/v1" }) },
  "GET /ai/calls": { expect: ADMINS },

  // disparos (bulk messages): admins only; the external tool's call takes a connection's token, never a user's session
  "GET /disparos": { expect: ADMINS },
  "GET /disparos/stats": { expect: ADMINS },
  "POST /disparos": {
    expect: ADMINS,
    body: (f) => ({ whatsappId: f.whatsapp.other, rows: [{ number: "5511977776666", message: "Promoção" }] }),
  },
  "POST /api/disparos": {
    expect: { anon: 401, own: 403, other: 403, superv: 403, admin: 403 },
    body: () => ({ rows: [{ number: "5511977776666", message: "Oi" }] }),
  },
  "POST /disparos/restart-errors": { expect: ADMINS },
  "POST /disparos/cancel-pending": { expect: ADMINS },
  "DELETE /disparos": { expect: ADMINS, last: true },
  "GET /disparos/connections": { expect: ADMINS },
  "PUT /disparos/connections/{id}": { expect: ADMINS, body: () => ({ paused: false }) },
  "GET /disparos/opt-outs": { expect: ADMINS },
  "DELETE /disparos/opt-outs/{contactId}": { expect: ADMINS },
  // schedules: on tickets the caller may see (the list shows only those; a schedule the caller may not see is 404)
  "GET /schedules": { expect: SIGNED_IN },
  "POST /schedules": {
    expect: TICKET_SCOPED,
    body: (f, target) => ({ ticketId: f.ticket[target], message: "Lembrete agendado", when: "2099-01-01T10:00:00" }),
  },
  "DELETE /schedules/{id}": { expect: SIGNED_IN },
  // the message API takes a connection's token, never a user's session: every session token is refused
  "POST /api/messages/send": { expect: all(401), body: () => ({ number: "5511977776666", body: "Oi" }) },
  // bot content: everyone signed in reads (agents send audio entries, chat entries answer their tickets), admins write
  "GET /chatbot": { expect: SIGNED_IN },
  "POST /chatbot": { expect: ADMINS, body: (f) => ({ shortcut: `planos${f.seq()}`, message: "Nossos planos", url: "" }) },
  "PUT /chatbot/{id}": { expect: ADMINS, body: () => ({ message: "Trocado" }) },
  "DELETE /chatbot/{id}": { expect: ADMINS },
  "POST /chatbot/upload": { expect: ADMINS },
  "GET /audiobot": { expect: SIGNED_IN },
  "POST /audiobot": { expect: ADMINS, body: (f) => ({ titulo: `Áudio ${f.seq()}`, url: "" }) },
  "PUT /audiobot/{id}": { expect: ADMINS, body: () => ({ titulo: "Trocado" }) },
  "DELETE /audiobot/{id}": { expect: ADMINS },
  "POST /audiobot/upload": { expect: ADMINS },
  // the background machinery (dead jobs, what waits in the outbox and the journal)
  "GET /jobs": { expect: ADMINS },

  // the dashboard (stricter than the spec's unauthenticated fetch: business figures and server details)
  "GET /metrics": { expect: SUPERVISORS },
  // the simulator (tests and demos; off in production)
  "GET /simulator/api/connections": { expect: ADMINS },
  "POST /simulator/api/connections": { expect: ADMINS, body: (f) => ({ name: `Simulador ${f.seq()}` }) },
  "POST /simulator/api/connections/{id}/scan": { expect: ADMINS, body: () => ({ qrcode: "nao-e-este" }) },
  "POST /simulator/api/connections/{id}/messages": { expect: ADMINS, body: () => ({ number: "5511988887777", body: "oi" }) },
  "GET /simulator/api/connections/{id}/chats": { expect: ADMINS },
  "GET /simulator/api/connections/{id}/chats/{number}": { expect: ADMINS },
  "GET /simulator/api/connections/{id}/chats/{number}/media/{messageId}": { expect: ADMINS },
  "POST /simulator/api/connections/{id}/chats/{number}/read": { expect: ADMINS },
  "POST /simulator/api/connections/{id}/chats/{number}/typing": { expect: ADMINS, body: () => ({ typing: true }) },
  "PUT /simulator/api/connections/{id}/chats/{number}/refused": { expect: ADMINS, body: () => ({ refused: false }) },
  "POST /simulator/api/connections/{id}/unlink": { expect: ADMINS, fresh: "whatsapp", body: () => ({ reason: "loggedOut" }) },

  // hidden from the document
  "GET /health": { expect: PUBLIC },
  "GET /simulator": { expect: PUBLIC }, // the page; its API above is for admins
  // operations (issue 28 §6): for load balancers and monitors, without signing in
  "GET /ready": { expect: PUBLIC },
  // without METRICS_TOKEN outside production: open (with it, its Bearer; in production without it, 404: ops.test.ts)
  "GET /metrics/prometheus": { expect: PUBLIC },
};

/** Routes the OpenAPI document does not list but the table covers. */
export const HIDDEN_ROUTES = ["GET /health", "GET /simulator", "GET /ready", "GET /metrics/prometheus"];
