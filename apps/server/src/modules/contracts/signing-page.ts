/**
 * The public signing page (/assinar/{token}): server-rendered, one inline script allowed by its
 * hash (inlinePageCsp), no sign-in. It asks the first five CPF digits first; only then does it
 * fetch the PDF and the text (the document prints the whole CPF), compute the PDF's SHA-256 in the
 * browser (the hash of the document shown, sent back with the acceptance), show it framed on wide
 * screens and as text on phones, then ask the full name and 'Li e aceito'. Once signed, the same
 * link gives the signed copy behind the same check while it lives.
 */

import { triesText } from "./signing.js";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f6f8;--card:#fff;--fg:#1c2430;--muted:#5b6675;--line:#d9dee5;--pri:#1565c0;--ok:#2e7d32;--err:#c62828}
@media (prefers-color-scheme:dark){:root{--bg:#11151a;--card:#1b2129;--fg:#e6eaf0;--muted:#9aa5b4;--line:#2c3440;--pri:#64b5f6;--ok:#81c784;--err:#ef9a9a}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:900px;margin:0 auto;padding:16px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:16px;margin-bottom:16px}
h1{font-size:1.3rem;margin:0 0 4px}h2{font-size:1.05rem;margin:0 0 8px}.muted{color:var(--muted);font-size:.9rem}
iframe{width:100%;height:70vh;border:1px solid var(--line);border-radius:8px;background:#fff}
.texto{white-space:pre-wrap;font-size:.95rem;max-height:60vh;overflow:auto;border:1px solid var(--line);border-radius:8px;padding:12px;margin-top:8px}
label{display:block;font-weight:600;margin:8px 0 4px}input[type=text],input[inputmode]{width:100%;font-size:1.05rem;padding:10px 12px;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg)}
.check{display:flex;gap:10px;align-items:flex-start;font-weight:400;margin:12px 0}.check input{width:22px;height:22px;margin-top:2px}
button{font:inherit;font-weight:600;background:var(--pri);color:#fff;border:0;border-radius:8px;padding:10px 18px;margin-top:12px;min-height:44px;cursor:pointer}
@media (prefers-color-scheme:dark){button{color:#0d1b2a}}
button:disabled{opacity:.5;cursor:default}.err{color:var(--err);min-height:1.2em;margin-top:6px}.ok{color:var(--ok);font-weight:700}
.sha{font-family:ui-monospace,Menlo,monospace;font-size:.75rem;word-break:break-all}
a{color:var(--pri)}[hidden]{display:none!important}
@media (max-width:759px){iframe{display:none}main{padding:10px}}
`;

const SCRIPT = `(function(){
var app=document.getElementById("app");var base="/assinar/"+encodeURIComponent(app.dataset.token);var shown=app.dataset.sha;var signed=app.dataset.signed==="1";var cpf5="";var url="";
var MSG={ERR_SIGNING_CPF_MISMATCH:"Os dígitos não conferem com o CPF do contrato.",ERR_SIGNING_LOCKED:"Link bloqueado após 5 tentativas incorretas. Peça um novo link ao atendimento.",ERR_SIGNING_LINK_INVALID:"Este link expirou ou já foi usado.",ERR_SIGNING_DOCUMENT_CHANGED:"O documento mudou desde que a página abriu. Recarregue a página.",ERR_SIGNING_NAME_MISMATCH:"Digite o seu nome completo como está no contrato.",ERR_VALIDATION:"Verifique os campos."};
function $(id){return document.getElementById(id)}
function hex(b){return Array.prototype.map.call(new Uint8Array(b),function(x){return("0"+x.toString(16)).slice(-2)}).join("")}
function fail(r){return r.json().catch(function(){return{}}).then(function(j){if(j.fields&&j.fields.cpf5)$("tries").textContent=j.fields.cpf5.join(" ")+".";throw new Error(MSG[j.error]||"Não foi possível concluir. Tente de novo.")})}
function post(path,body){return fetch(base+path,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify(body)}).then(function(r){return r.ok?r:fail(r)})}
function pdf(){return post("/documento",{cpf5:cpf5}).then(function(r){return r.arrayBuffer()}).then(function(buf){
 if(url)URL.revokeObjectURL(url);url=URL.createObjectURL(new Blob([buf],{type:"application/pdf"}));$("pdf").src=url;$("open").href=url;
 if(window.crypto&&crypto.subtle)return crypto.subtle.digest("SHA-256",buf).then(function(h){if(!signed){shown=hex(h);$("sha").textContent=shown}})})}
$("fcpf").addEventListener("submit",function(e){e.preventDefault();var v=$("cpf5").value.replace(/\\D/g,"");$("ecpf").textContent="";
 if(v.length!==5){$("ecpf").textContent="Digite os 5 primeiros dígitos do seu CPF.";return}
 $("bcpf").disabled=true;post("/cpf",{cpf5:v}).then(function(r){return r.json()}).then(function(j){cpf5=v;$("texto").textContent=j.texto||"";return pdf()}).then(function(){
  $("fcpf").hidden=true;$("doc").hidden=false;if(window.matchMedia("(max-width: 759px)").matches)$("textv").open=true;
  if(!signed)$("faceite").hidden=false;$("doc").scrollIntoView({block:"start"})
 }).catch(function(err){$("ecpf").textContent=err.message}).then(function(){$("bcpf").disabled=false})});
if(!signed){
function sync(){$("bassinar").disabled=!($("aceito").checked&&$("nome").value.trim().length>1)}
$("aceito").addEventListener("change",sync);$("nome").addEventListener("input",sync);
$("faceite").addEventListener("submit",function(e){e.preventDefault();$("eaceite").textContent="";$("bassinar").disabled=true;
 post("/aceite",{cpf5:cpf5,nome:$("nome").value,aceito:true,documentoSha256:shown}).then(function(r){return r.json()}).then(function(j){$("faceite").hidden=true;$("done").hidden=false;$("signedsha").textContent=j.assinadoSha256||"";
  signed=true;$("open").textContent="Baixar a cópia assinada";$("open").setAttribute("download","contrato-assinado.pdf");return pdf()}).catch(function(err){$("eaceite").textContent=err.message;sync()})});
}
})();`;

/** The page's one script, as the CSP hashes it. */
export const SIGNING_SCRIPT_PAGE = `<script>${SCRIPT}</script>`;

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function signingPage(d: {
  token: string;
  titulo: string;
  nome: string;
  fileSha256: string;
  triesLeft: number;
  /** the contract is signed: the page gives its signed copy */
  signed: boolean;
  signedAt: string;
  /** the signed copy goes to the customer's e-mail (an address and a mail server are set) */
  mailCopy: boolean;
}): string {
  const tries = `<div id="tries" class="muted">${esc(triesText(d.triesLeft))}.</div>`;
  const cpfForm = (label: string) =>
    `<form id="fcpf" novalidate><label for="cpf5">${label}</label>
<input id="cpf5" inputmode="numeric" autocomplete="off" maxlength="5" pattern="[0-9]{5}" placeholder="00000">
<div id="ecpf" class="err" role="alert"></div>${tries}<button id="bcpf" type="submit">Confirmar</button>
<p class="muted">Para proteger os seus dados, o documento aparece depois que você confirmar o CPF.</p></form>`;
  const doc = `<div class="card" id="doc" hidden><iframe id="pdf" title="Documento do contrato"></iframe>
<details id="textv"><summary>Versão em texto</summary><div id="texto" class="texto"></div></details>
<p class="muted"><a id="open" href="#" target="_blank" rel="noopener"${d.signed ? ' download="contrato-assinado.pdf"' : ""}>${
    d.signed ? "Baixar a cópia assinada" : "Abrir o PDF"
  }</a> · SHA-256 do documento: <span id="sha" class="sha">${esc(d.fileSha256)}</span></p></div>`;
  const head = d.signed
    ? `<h1>${esc(d.titulo)}</h1><p class="ok">Contrato assinado${d.signedAt ? ` em ${esc(d.signedAt)}` : ""}.</p><div class="muted">Contrato de ${esc(d.nome)}.</div>`
    : `<h1>${esc(d.titulo)}</h1><div class="muted">Contrato para ${esc(d.nome)} · leia com atenção antes de assinar.</div>`;
  const after = d.mailCopy
    ? "Você receberá a confirmação no WhatsApp e uma cópia assinada no seu e-mail."
    : "Você receberá a confirmação no WhatsApp. Baixe a sua cópia assinada acima; ela fica disponível neste link enquanto ele for válido.";
  const body = d.signed
    ? `<div class="card"><h2>Cópia assinada</h2>${cpfForm("Confirme os 5 primeiros dígitos do seu CPF para ver a cópia assinada")}</div>`
    : `<div class="card"><h2>Assinatura eletrônica</h2>${cpfForm("Confirme os 5 primeiros dígitos do seu CPF")}
<form id="faceite" hidden novalidate><label for="nome">Digite o seu nome completo</label><input id="nome" type="text" autocomplete="name">
<label class="check"><input id="aceito" type="checkbox"><span>Li e aceito os termos deste contrato e concordo em assiná-lo eletronicamente.</span></label>
<div id="eaceite" class="err" role="alert"></div><button id="bassinar" type="submit" disabled>Assinar contrato</button>
<p class="muted">Registramos a data e hora do servidor, o seu IP, o navegador e o código SHA-256 do documento exibido (MP 2.200-2/2001, art. 10, § 2º).</p></form>
<div id="done" hidden><p class="ok">Contrato assinado com sucesso!</p><p class="muted">${after}</p><p class="muted">SHA-256 do arquivo assinado: <span id="signedsha" class="sha"></span></p></div>
</div>`;
  return shell(
    `${d.signed ? "Contrato assinado" : "Assinar"}: ${d.titulo}`,
    `<main id="app" data-token="${esc(d.token)}" data-sha="${esc(d.fileSha256)}" data-signed="${d.signed ? "1" : "0"}">
<div class="card">${head}</div>
${doc}
${body}</main>${SIGNING_SCRIPT_PAGE}`,
  );
}

/** A page that answers instead of the signing page: why not, and what to do. */
export function signingMessagePage(title: string, text: string, token?: string): string {
  const back = token ? `<p><a href="/assinar/${esc(encodeURIComponent(token))}">Voltar para a página do contrato</a></p>` : "";
  return shell(title, `<main><div class="card"><h1>${esc(title)}</h1><p>${esc(text)}</p>${back}</div></main>`);
}

const NEW_LINK = "Peça um novo link ao atendimento.";

/** What the customer reads, by the error that stopped the link (with its HTTP status). */
export const SIGNING_ERROR_PAGES: Record<string, { status: number; title: string; text: string }> = {
  ERR_SIGNING_LINK_INVALID: {
    status: 410,
    title: "Link indisponível",
    text: `Este link de assinatura expirou, já foi usado ou não existe. ${NEW_LINK}`,
  },
  ERR_SIGNING_LOCKED: {
    status: 423,
    title: "Link bloqueado",
    text: `Este link foi bloqueado após 5 tentativas de CPF incorretas. ${NEW_LINK}`,
  },
  ERR_NOT_FOUND: { status: 404, title: "Documento não encontrado", text: `O arquivo deste contrato não está disponível. ${NEW_LINK}` },
};

/** The old address of the PDF: the document is shown only after the CPF check, on the page. */
export const SIGNING_CPF_FIRST = {
  title: "Confirme o seu CPF",
  text: "Por segurança, o contrato é exibido na página de assinatura depois que você confirma os 5 primeiros dígitos do seu CPF.",
};
