/**
 * The simulator page, served at /simulator (see modules/connections/simulator.routes.ts): one
 * standalone HTML file, no build step. An admin signs in (or reuses the web app's token from
 * localStorage 'token'), creates and pairs simulator connections, and plays customers.
 */
import { CONNECTION_STATUS_LABELS_PT } from "@balcao/contract";

export const SIMULATOR_PAGE = String.raw`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Balcão — Simulador de WhatsApp</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px system-ui, sans-serif; background: #eceff1; color: #1f2933; height: 100vh; display: flex; flex-direction: column; }
  header { background: #001f3f; color: #fff; padding: 10px 16px; display: flex; align-items: center; gap: 12px; }
  header h1 { font-size: 16px; margin: 0; flex: 1; }
  header button { background: transparent; color: #fff; border: 1px solid #fff8; }
  main { flex: 1; display: grid; grid-template-columns: 280px 260px 1fr; min-height: 0; }
  section { background: #fff; border-right: 1px solid #d9dee3; display: flex; flex-direction: column; min-height: 0; }
  section h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #52606d; margin: 12px 12px 6px; }
  .scroll { overflow: auto; flex: 1; }
  .item { padding: 10px 12px; border-bottom: 1px solid #eef1f4; cursor: pointer; }
  .item.active { background: #e3f2fd; }
  .item small { color: #7b8794; display: block; }
  .status { font-size: 11px; padding: 1px 6px; border-radius: 8px; background: #eee; }
  .status.CONNECTED { background: #c8e6c9; } .status.qrcode { background: #fff3c4; } .status.DISCONNECTED { background: #ffcdd2; }
  .qr { font: 11px monospace; word-break: break-all; background: #fafafa; border: 1px dashed #bbb; padding: 6px; margin: 6px 0; }
  form, .box { padding: 8px 12px; display: flex; flex-direction: column; gap: 6px; border-bottom: 1px solid #eef1f4; }
  input, textarea, button { font: inherit; padding: 6px 8px; border: 1px solid #cbd2d9; border-radius: 4px; }
  button { background: #6b74d7; color: #fff; border: none; cursor: pointer; }
  button.secondary { background: #e4e7eb; color: #1f2933; }
  button:disabled { opacity: .5; cursor: default; }
  #chat { background: #e5ddd5; border-right: none; }
  #chatHead { background: #f0f2f5; padding: 10px 16px; border-bottom: 1px solid #d9dee3; }
  #chatHead small { color: #52606d; }
  #messages { padding: 16px; display: flex; flex-direction: column; gap: 6px; }
  .bubble { max-width: 600px; padding: 6px 10px 4px; border-radius: 8px; box-shadow: 0 1px 1px #0001; white-space: pre-wrap; word-wrap: break-word; }
  .bubble.customer { align-self: flex-end; background: #dcf8c6; }
  .bubble.agent { align-self: flex-start; background: #fff; }
  .bubble.deleted { font-style: italic; color: #7b8794; }
  .bubble img { max-width: 280px; display: block; border-radius: 4px; }
  .meta { font-size: 11px; color: #7b8794; text-align: right; margin-top: 2px; }
  .ack3 { color: #34b7f1; }
  .quote { border-left: 3px solid #6b74d7; background: #0000000d; padding: 2px 6px; margin-bottom: 4px; font-size: 12px; }
  #composer { display: flex; gap: 6px; padding: 8px; background: #f0f2f5; align-items: center; }
  #composer textarea { flex: 1; resize: none; height: 38px; }
  #login { max-width: 320px; margin: 60px auto; background: #fff; padding: 20px; border-radius: 8px; }
  .error { color: #c62828; font-size: 12px; }
  .hint { color: #7b8794; font-size: 12px; padding: 0 12px; }
  label.check { display: flex; gap: 6px; align-items: center; font-size: 13px; }
</style>
</head>
<body>
<header><h1>Balcão · Simulador de WhatsApp</h1><span id="who"></span><button id="logout" class="secondary" hidden>Sair</button></header>
<div id="login" hidden>
  <form id="loginForm">
    <strong>Entrar como administrador</strong>
    <input name="email" type="email" placeholder="E-mail" required autocomplete="username">
    <input name="password" type="password" placeholder="Senha" required autocomplete="current-password">
    <button>Entrar</button>
    <div class="error" id="loginError"></div>
  </form>
</div>
<main id="app" hidden>
  <section>
    <h2>Conexões simuladas</h2>
    <div class="scroll" id="connections"></div>
    <form id="newConn">
      <strong>Nova conexão</strong>
      <input name="name" placeholder="Nome (ex.: Simulador)" required minlength="2" maxlength="50">
      <div id="queueChecks"></div>
      <textarea name="greetingMessage" placeholder="Saudação (obrigatória com 2+ filas)"></textarea>
      <input name="farewellMessage" placeholder="Despedida">
      <button>Criar e mostrar QR</button>
      <div class="error" id="connError"></div>
    </form>
  </section>
  <section>
    <h2>Clientes</h2>
    <form id="newChat">
      <input name="number" placeholder="Número (ex.: 5511999990000)" required pattern="[0-9 +()-]{8,25}">
      <input name="name" placeholder="Nome do cliente">
      <button>Abrir conversa</button>
    </form>
    <label class="check" style="padding:6px 12px"><input type="checkbox" id="autoRead" checked> ler respostas automaticamente</label>
    <div class="scroll" id="chats"></div>
  </section>
  <section id="chat">
    <div id="chatHead"><strong id="chatTitle">Escolha uma conexão e um cliente</strong><br><small id="chatSub"></small>
      <label class="check" id="refusedBox" hidden><input type="checkbox" id="refused"> Recusar mensagens (como um número sem WhatsApp)</label></div>
    <div class="scroll"><div id="messages"></div></div>
    <div id="composer">
      <input type="file" id="file" accept="image/*,audio/*,video/*,application/pdf" hidden>
      <button class="secondary" id="attach" title="Anexar imagem, áudio ou arquivo">📎</button>
      <button class="secondary" id="record" title="Gravar áudio">🎤</button>
      <textarea id="text" placeholder="Mensagem do cliente"></textarea>
      <button id="send">Enviar</button>
    </div>
  </section>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
// a connection's status in the words of the web app's connection cards
const STATUS_LABELS = ${JSON.stringify(CONNECTION_STATUS_LABELS_PT)};
const state = { token: null, conn: null, chat: null, chatName: "", media: new Map(), lastRender: "", reading: false };

function storedToken() {
  for (const key of ["simulatorToken", "token"]) {
    const raw = localStorage.getItem(key);
    if (!raw) continue;
    try { const v = JSON.parse(raw); if (typeof v === "string") return v; } catch { return raw; }
  }
  return null;
}

async function refresh() {
  const res = await fetch("/auth/refresh_token", { method: "POST", credentials: "include" });
  if (!res.ok) return false;
  const body = await res.json();
  state.token = body.token;
  localStorage.setItem("simulatorToken", body.token);
  return true;
}

async function call(method, url, body, isForm) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const headers = { authorization: "Bearer " + state.token };
    if (body && !isForm) headers["content-type"] = "application/json";
    const res = await fetch(url, { method, headers, body: body ? (isForm ? body : JSON.stringify(body)) : undefined, credentials: "include" });
    if ((res.status === 401 || res.status === 403) && attempt === 0) {
      const err = await res.clone().json().catch(() => ({}));
      if (err.error === "ERR_NO_PERMISSION") throw new Error("Somente administradores usam o simulador.");
      if (await refresh()) continue;
      showLogin();
      throw new Error("Sessão expirada");
    }
    const data = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.blob();
    if (!res.ok) throw new Error((data && data.error) || res.statusText);
    return data;
  }
}

function showLogin() { $("app").hidden = true; $("login").hidden = false; $("logout").hidden = true; }
function showApp() { $("login").hidden = true; $("app").hidden = false; $("logout").hidden = false; }

$("loginForm").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const res = await fetch("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, credentials: "include",
    body: JSON.stringify({ email: f.get("email"), password: f.get("password") }) });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) { $("loginError").textContent = body.error || "Falha ao entrar"; return; }
  if (body.user.profile !== "admin") { $("loginError").textContent = "Somente administradores usam o simulador."; return; }
  state.token = body.token;
  localStorage.setItem("simulatorToken", body.token);
  $("who").textContent = body.user.name;
  start();
});
$("logout").addEventListener("click", () => { localStorage.removeItem("simulatorToken"); state.token = null; showLogin(); });

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const c of children) if (c != null) node.append(c);
  return node;
}

async function loadQueues() {
  const queues = await call("GET", "/queue");
  const box = $("queueChecks");
  box.replaceChildren(...queues.map((q) => el("label", { className: "check" }, el("input", { type: "checkbox", value: q.id, name: "queue" }), q.name)));
  if (!queues.length) box.append(el("div", { className: "hint", textContent: "Sem filas: os tickets ficam sem fila." }));
}

async function loadConnections() {
  const list = await call("GET", "/simulator/api/connections");
  const box = $("connections");
  if (!list.length) box.replaceChildren(el("div", { className: "hint", textContent: "Nenhuma conexão simulada. Crie uma abaixo." }));
  else box.replaceChildren(...list.map((c) => {
    const item = el("div", { className: "item" + (state.conn === c.id ? " active" : "") },
      el("strong", { textContent: c.name + " " }), el("span", { className: "status " + c.status, textContent: STATUS_LABELS[c.status] || c.status }),
      el("small", { textContent: (c.number ? "+" + c.number + " · " : "") + (c.queues.map((q) => q.name).join(", ") || "sem filas") }));
    if (c.status === "qrcode") {
      const phone = el("input", { placeholder: "Número do celular (opcional)", inputMode: "tel" });
      phone.addEventListener("click", (ev) => ev.stopPropagation());
      const scan = el("button", { textContent: "Escanear QR com o celular simulado" });
      scan.addEventListener("click", async (ev) => { ev.stopPropagation(); try { const number = phone.value.replace(/\D/g, ""); await call("POST", "/simulator/api/connections/" + c.id + "/scan", number ? { qrcode: c.qrcode, number } : { qrcode: c.qrcode }); loadConnections(); } catch (err) { alert(err.message); } });
      item.append(el("div", { className: "qr", textContent: c.qrcode }), phone, scan);
    }
    item.addEventListener("click", () => { state.conn = c.id; state.chat = null; loadConnections(); loadChats(); renderChat(null); });
    return item;
  }));
  if (state.conn == null && list.length) { state.conn = list[0].id; loadChats(); }
}

$("newConn").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  try {
    const created = await call("POST", "/simulator/api/connections", {
      name: f.get("name"), queueIds: f.getAll("queue").map(Number),
      greetingMessage: f.get("greetingMessage") || "", farewellMessage: f.get("farewellMessage") || "" });
    $("connError").textContent = ""; e.target.reset(); state.conn = created.id; loadConnections();
  } catch (err) { $("connError").textContent = err.message; }
});

async function loadChats() {
  if (state.conn == null) return;
  let chats = [];
  try { chats = await call("GET", "/simulator/api/connections/" + state.conn + "/chats"); } catch { chats = []; }
  $("chats").replaceChildren(...chats.map((c) => {
    const item = el("div", { className: "item" + (state.chat === c.number ? " active" : "") },
      el("strong", { textContent: c.name }), el("small", { textContent: "+" + c.number + " · " + (c.typing ? "digitando…" : c.last) }));
    item.addEventListener("click", () => { state.chat = c.number; state.chatName = c.name; loadChats(); loadChat(); });
    return item;
  }));
}

$("newChat").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  state.chat = String(f.get("number")).replace(/\D/g, "");
  state.chatName = String(f.get("name") || "");
  e.target.reset();
  loadChat();
});

function ackMark(ack) {
  if (ack >= 3) return el("span", { className: "ack3", textContent: " ✓✓" });
  if (ack === 2) return " ✓✓";
  if (ack === 1) return " ✓";
  return " 🕓";
}

async function mediaNode(m) {
  let url = state.media.get(m.id);
  if (!url) {
    const blob = await call("GET", "/simulator/api/connections/" + state.conn + "/chats/" + state.chat + "/media/" + encodeURIComponent(m.id));
    url = URL.createObjectURL(blob);
    state.media.set(m.id, url);
  }
  if (m.mediaType === "image" || m.mediaType === "sticker") return el("img", { src: url, alt: m.fileName || "imagem" });
  if (m.mediaType === "audio") return el("audio", { src: url, controls: true });
  if (m.mediaType === "video") return el("video", { src: url, controls: true, width: 280 });
  return el("a", { href: url, download: m.fileName || "arquivo", textContent: "📄 " + (m.fileName || "arquivo") });
}

async function renderChat(chat) {
  if (!chat) { $("chatTitle").textContent = "Escolha uma conexão e um cliente"; $("chatSub").textContent = ""; $("messages").replaceChildren(); return; }
  $("chatTitle").textContent = (chat.name || state.chatName || "Cliente") + " · +" + chat.number;
  $("chatSub").textContent = chat.typing ? "atendente digitando…" : "você é o cliente; as respostas do atendente aparecem à esquerda";
  $("refusedBox").hidden = false;
  $("refused").checked = Boolean(chat.refused);
  const key = JSON.stringify(chat.messages.map((m) => [m.id, m.ack, m.isDeleted]));
  if (key === state.lastRender) return;
  state.lastRender = key;
  const byId = new Map(chat.messages.map((m) => [m.id, m]));
  const nodes = [];
  for (const m of chat.messages) {
    const b = el("div", { className: "bubble " + (m.fromMe ? "agent" : "customer") + (m.isDeleted ? " deleted" : "") });
    const q = m.quotedId && byId.get(m.quotedId);
    if (q) b.append(el("div", { className: "quote", textContent: q.body || q.mediaType }));
    if (m.isDeleted) b.append("🚫 Mensagem apagada");
    else {
      if (m.hasMedia) { try { b.append(await mediaNode(m)); } catch { b.append("[mídia]"); } }
      if (m.body) b.append(el("div", { textContent: m.body }));
    }
    const time = new Date(m.at).toLocaleTimeString("pt-BR", { hour: "2-digit", minute: "2-digit" });
    b.append(el("div", { className: "meta" }, time, m.fromMe ? ackMark(m.ack) : null));
    nodes.push(b);
  }
  $("messages").replaceChildren(...nodes);
  const scroller = $("messages").parentElement;
  scroller.scrollTop = scroller.scrollHeight;
}

async function loadChat() {
  if (state.conn == null || !state.chat) return renderChat(null);
  const chat = await call("GET", "/simulator/api/connections/" + state.conn + "/chats/" + state.chat);
  await renderChat(chat);
  // the customer reads what the agent sent a moment after it arrived: ack 3 (blue ticks)
  if ($("autoRead").checked && !state.reading && !document.hidden && chat.messages.some((m) => m.fromMe && m.ack === 2)) {
    state.reading = true;
    setTimeout(async () => { try { await call("POST", "/simulator/api/connections/" + state.conn + "/chats/" + state.chat + "/read"); } finally { state.reading = false; } }, 1500);
  }
}

async function sendForm(form) {
  if (state.conn == null || !state.chat) { alert("Escolha uma conexão e um cliente."); return; }
  form.append("number", state.chat);
  form.append("name", state.chatName || "");
  try { await call("POST", "/simulator/api/connections/" + state.conn + "/messages", form, true); } catch (err) { alert(err.message); }
  loadChat(); loadChats();
}

$("send").addEventListener("click", async () => {
  const text = $("text").value;
  if (!text.trim()) return;
  const form = new FormData(); form.append("body", text);
  $("text").value = "";
  await sendForm(form);
});
$("text").addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("send").click(); } });
// the agent sees "digitando…" while the customer types (stopped after 1 s without keys)
let typingTimer = null;
function customerTyping(on) {
  if (state.conn == null || !state.chat) return;
  call("POST", "/simulator/api/connections/" + state.conn + "/chats/" + state.chat + "/typing", { typing: on }).catch(() => {});
}
$("text").addEventListener("input", () => {
  if (!typingTimer) customerTyping(true);
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => { typingTimer = null; customerTyping(false); }, 1000);
});
$("refused").addEventListener("change", async () => {
  if (state.conn == null || !state.chat) return;
  try { await call("PUT", "/simulator/api/connections/" + state.conn + "/chats/" + state.chat + "/refused", { refused: $("refused").checked }); }
  catch (err) { alert(err.message); }
});
$("attach").addEventListener("click", () => $("file").click());
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  const form = new FormData(); form.append("body", $("text").value); form.append("file", file, file.name);
  $("text").value = ""; $("file").value = "";
  await sendForm(form);
});

let recorder = null;
$("record").addEventListener("click", async () => {
  if (recorder) { recorder.stop(); return; }
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const chunks = [];
    recorder = new MediaRecorder(stream);
    recorder.ondataavailable = (e) => chunks.push(e.data);
    recorder.onstop = async () => {
      stream.getTracks().forEach((t) => t.stop());
      const type = recorder.mimeType || "audio/webm";
      recorder = null; $("record").textContent = "🎤";
      const form = new FormData(); form.append("file", new Blob(chunks, { type }), "audio." + (type.includes("ogg") ? "ogg" : "webm"));
      await sendForm(form);
    };
    recorder.start(); $("record").textContent = "⏹";
  } catch (err) { alert("Microfone indisponível: " + err.message); }
});

let timers = [];
function start() {
  showApp();
  timers.forEach(clearInterval);
  loadQueues().catch(() => {});
  loadConnections().catch(() => {});
  timers = [
    setInterval(() => loadConnections().catch(() => {}), 3000),
    setInterval(() => { loadChats().catch(() => {}); loadChat().catch(() => {}); }, 1000),
  ];
}

(async () => {
  state.token = storedToken();
  if (!state.token && !(await refresh())) return showLogin();
  try {
    const me = await call("GET", "/simulator/api/connections");
    if (me) start();
  } catch (err) {
    $("loginError").textContent = err.message;
    showLogin();
  }
})();
</script>
</body>
</html>
`;
