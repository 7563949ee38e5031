import type { Database } from "../apps/server/src/db/client.js";

/**
 * The list benchmark's data, generated in SQL: 20 users, 3 queues, 20 000 contacts, 50 000
 * tickets (10 % open, 10 % pending, 80 % closed, spread over 60 days), 500 000 messages (10 per
 * ticket, customer and agent in turn) of Portuguese-like text, the tickets' history (created,
 * accepted, finished). Deterministic (setseed).
 */
export const SIZES = { users: 20, queues: 3, contacts: 20_000, tickets: 50_000, messagesPerTicket: 10 };

const FIRST = [
  "Ana",
  "Bruno",
  "Carla",
  "Daniel",
  "Eduarda",
  "Fabiana",
  "Gabriel",
  "Helena",
  "Igor",
  "Joana",
  "Lucas",
  "Marina",
  "Nathalia",
  "Otávio",
  "Paula",
  "Rafael",
  "Sabrina",
  "Tiago",
  "Vitória",
  "Wagner",
];
const LAST = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Lima",
  "Pereira",
  "Costa",
  "Rodrigues",
  "Almeida",
  "Nascimento",
  "Cabral",
  "Abreu",
  "Ferreira",
  "Gomes",
  "Martins",
  "Ribeiro",
  "Carvalho",
  "Teixeira",
  "Moura",
  "Barbosa",
];
const PHRASES = [
  "bom dia, minha internet caiu",
  "a conexão está lenta desde ontem",
  "quero a segunda via do boleto",
  "o técnico pode vir no sábado?",
  "obrigado pelo atendimento",
  "o roteador está piscando vermelho",
  "já reiniciei o modem e nada",
  "qual o valor do plano de 500 mega?",
  "preciso mudar a data de vencimento",
  "a fibra foi cortada na rua",
  "vocês atendem no meu bairro?",
  "paguei ontem pelo pix",
  "o sinal do wi-fi não chega no quarto",
  "quando volta a funcionar?",
  "pode me enviar o contrato?",
  "acabou a luz e depois não voltou a internet",
  "estou no trabalho, me liga mais tarde",
  "ok, aguardo",
  "certo, muito obrigado",
  "o cabo está solto na caixa",
];

const sqlArray = (items: string[]) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]`;

export async function generate(database: Database, whatsappId: number): Promise<void> {
  const q = (s: string) => database.exec(s);
  await q("select setseed(0.42)");
  await q(`insert into queues (name, color, greeting_message)
           select 'Fila ' || g, '#' || lpad(to_hex(g * 3000000), 6, '0'), 'Bem-vindo à fila ' || g from generate_series(1, ${SIZES.queues}) g
           on conflict do nothing`);
  await q(`insert into users (name, email, password_hash, profile)
           select 'Agente ' || g, 'agente' || g || '@bench.local', 'x', case when g <= 2 then 'superv' else 'user' end
           from generate_series(1, ${SIZES.users}) g on conflict do nothing`);
  await q(`insert into user_queues (user_id, queue_id)
           select u.id, q.id from users u join queues q on (u.id + q.id) % 2 = 0 or q.name = 'Fila 1'
           where u.email like '%@bench.local' on conflict do nothing`);
  await q(`insert into whatsapp_queues (whatsapp_id, queue_id) select ${whatsappId}, id from queues on conflict do nothing`);
  const first = sqlArray(FIRST);
  const last = sqlArray(LAST);
  // half of the contacts have an e-mail (the contact search looks there too)
  await q(`insert into contacts (name, number, email)
           select (${first})[1 + (g * 7) % ${FIRST.length}] || ' ' || (${last})[1 + (g * 13 + g / 20) % ${LAST.length}],
                  '55' || (11 + g % 80)::text || '9' || lpad(g::text, 8, '0'),
                  case when g % 2 = 0 then 'cliente' || g::text || '@provedor.net.br' else '' end
           from generate_series(1, ${SIZES.contacts}) g`);
  // tickets 1..10 000 are live (open, pending), each on its own contact; the rest closed, on any contact
  await q(`insert into tickets (status, last_message, unread_messages, contact_id, user_id, queue_id, whatsapp_id, created_at, updated_at, closed_at)
           select s.status,
                  '',
                  case when s.status = 'pending' then (g % 4) else 0 end,
                  case when g <= 10000 then (select min(id) from contacts) + g - 1 else (select min(id) from contacts) + (g * 7919) % ${SIZES.contacts} end,
                  case when s.status = 'pending' then null else (select min(id) from users where email like '%@bench.local') + g % ${SIZES.users} end,
                  case when g % 10 = 0 then null else (select min(id) from queues) + g % ${SIZES.queues} end,
                  ${whatsappId},
                  s.at - interval '2 hours', s.at, case when s.status = 'closed' then s.at end
           from generate_series(1, ${SIZES.tickets}) g,
           lateral (select case when g <= 5000 then 'open' when g <= 10000 then 'pending' else 'closed' end as status,
                           now() - make_interval(secs => (random() * 60 * 86400)::int) as at) s`);
  const phrases = sqlArray(PHRASES);
  // odd messages from the customer, even ones the ticket's agent's replies
  await q(`insert into messages (whatsapp_id, body, from_me, read, ack, ticket_id, contact_id, source, user_id, created_at, updated_at)
           select ${whatsappId}, (${phrases})[1 + ((t.id * 31 + m * 17) % ${PHRASES.length})], m % 2 = 0, true, case when m % 2 = 0 then 3 else 0 end,
                  t.id, case when m % 2 = 0 then null else t.contact_id end,
                  case when m % 2 = 0 then 'agent' else 'customer' end, case when m % 2 = 0 then t.user_id end,
                  t.updated_at - make_interval(mins => (${SIZES.messagesPerTicket} - m) * 3), t.updated_at - make_interval(mins => (${SIZES.messagesPerTicket} - m) * 3)
           from tickets t cross join generate_series(1, ${SIZES.messagesPerTicket}) m`);
  // the history the dashboard reads: created (waiting), accepted by its agent a minute later, finished when closed
  await q(`insert into ticket_history (ticket_id, from_status, to_status, queue_id, user_id, actor, reason, created_at)
           select id, null, 'pending', queue_id, null, 'customer', 'create', created_at from tickets
           union all
           select id, 'pending', 'open', queue_id, user_id, 'user', 'accept', created_at + interval '1 minute' from tickets where user_id is not null
           union all
           select id, 'open', 'closed', queue_id, user_id, 'user', 'finish', closed_at from tickets where status = 'closed'`);
  await q(`update tickets t set last_message = left(m.body, 255)
           from (select distinct on (ticket_id) ticket_id, body from messages order by ticket_id, created_at desc) m where m.ticket_id = t.id`);
  await q("vacuum analyze");
  await q("checkpoint");
}
