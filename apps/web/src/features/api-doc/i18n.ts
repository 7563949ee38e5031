import { addFeatureTexts } from "../../locales";

/** The /doc page's texts (pt-BR first; the spec's statements verbatim in meaning). */
const pt = {
  doc: {
    title: "Documentação da API",
    intro: "Envie mensagens de WhatsApp a partir de outros sistemas (cobrança, monitoramento da rede, ERP) pela conexão que tem o token.",
    rulesTitle: "Antes de começar",
    tokenRule:
      "Cadastre primeiro um token na conexão: menu Conexões → editar conexão → campo token ('Gerar novo token'; copie-o na hora, ele não é mostrado de novo). O token identifica a conexão que envia.",
    numberRule:
      "O número não deve ter máscara nem caracteres especiais: apenas dígitos, com código do país, DDD e número. Exemplo com 12 dígitos começando com 55: 558533334444 (celulares têm 13: 5585999998888).",
    authRule: "Envie o token no cabeçalho X_TOKEN (ou X-Token), ou como Authorization: Bearer <token>, como faz o formulário de teste.",
    endpoint: "Endereço",
    answers: "Respostas",
    answerOk: "200: a mensagem foi guardada e entrou na fila de envio da conexão; responde o id da mensagem.",
    answerNumber: "400 ERR_WAPP_INVALID_CONTACT: o número não está no formato acima.",
    answerToken: "401 ERR_INVALID_TOKEN: nenhuma conexão tem este token.",
    answerRate: "429: chamadas demais com este token em um minuto; tente de novo após os segundos do cabeçalho Retry-After.",
    idempotency:
      "Para repetir uma chamada com segurança (queda de rede), envie o mesmo cabeçalho Idempotency-Key: a segunda responde a primeira e nada é enviado de novo.",
    history:
      "A mensagem fica no histórico do contato: no atendimento aberto, se houver; senão num atendimento fechado — nenhum atendimento fica aguardando. Se o cliente responder, um atendimento pendente abre com o histórico.",
    textTitle: "Mensagens de texto",
    textHelp: "JSON com number e body.",
    mediaTitle: "Mensagens de mídia",
    mediaHelp: "multipart/form-data com number, body (o nome do arquivo ou a legenda) e medias (um ou mais arquivos).",
    examples: "Exemplos",
    test: "Teste de Envio",
    token: "Token",
    number: "Número",
    body: "Mensagem",
    file: "Arquivo",
    chooseFile: "Escolher arquivo",
    noFile: "Nenhum arquivo escolhido",
    send: "Enviar",
    sent: "Mensagem enviada com sucesso",
    invalidToken: "Token inválido: nenhuma conexão tem este token.",
    rateLimited: "Muitas chamadas com este token. Tente de novo em {{seconds}} s.",
    openApi: "Documento OpenAPI (todas as chamadas)",
  },
};

type Texts = typeof pt;

const en: Texts = {
  doc: {
    title: "API documentation",
    intro: "Send WhatsApp messages from other systems (billing, network monitoring, ERP) through the connection that holds the token.",
    rulesTitle: "Before you start",
    tokenRule:
      "First register a token on the connection: Connections menu → edit connection → token field ('Generate new token'; copy it at once, it is not shown again). The token names the connection that sends.",
    numberRule:
      "The number must have no mask or special characters: digits only, with country code, area code and number. Example with 12 digits starting with 55: 558533334444 (mobiles have 13: 5585999998888).",
    authRule: "Send the token in the X_TOKEN header (or X-Token), or as Authorization: Bearer <token>, as the test form does.",
    endpoint: "Endpoint",
    answers: "Answers",
    answerOk: "200: the message was stored and queued on the connection; answers the message id.",
    answerNumber: "400 ERR_WAPP_INVALID_CONTACT: the number is not in the shape above.",
    answerToken: "401 ERR_INVALID_TOKEN: no connection has this token.",
    answerRate: "429: too many calls with this token in a minute; try again after the Retry-After header's seconds.",
    idempotency:
      "To retry a call safely (a network drop), send the same Idempotency-Key header: the second answers the first and nothing is sent again.",
    history:
      "The message stays in the contact's history: on the open ticket, if any; else on a closed one — no ticket is left waiting. If the customer answers, a pending ticket opens with the history.",
    textTitle: "Text messages",
    textHelp: "JSON with number and body.",
    mediaTitle: "Media messages",
    mediaHelp: "multipart/form-data with number, body (the file name or the caption) and medias (one or more files).",
    examples: "Examples",
    test: "Send test",
    token: "Token",
    number: "Number",
    body: "Message",
    file: "File",
    chooseFile: "Choose file",
    noFile: "No file chosen",
    send: "Send",
    sent: "Message sent successfully",
    invalidToken: "Invalid token: no connection has this token.",
    rateLimited: "Too many calls with this token. Try again in {{seconds}} s.",
    openApi: "OpenAPI document (every call)",
  },
};

const es: Texts = {
  doc: {
    title: "Documentación de la API",
    intro: "Envíe mensajes de WhatsApp desde otros sistemas (cobranza, monitoreo de red, ERP) por la conexión que tiene el token.",
    rulesTitle: "Antes de empezar",
    tokenRule:
      "Registre primero un token en la conexión: menú Conexiones → editar conexión → campo token ('Generar nuevo token'; cópielo en el momento, no se vuelve a mostrar). El token identifica la conexión que envía.",
    numberRule:
      "El número no debe tener máscara ni caracteres especiales: solo dígitos, con código de país, código de área y número. Ejemplo con 12 dígitos que empieza con 55: 558533334444 (los móviles tienen 13: 5585999998888).",
    authRule:
      "Envíe el token en el encabezado X_TOKEN (o X-Token), o como Authorization: Bearer <token>, como hace el formulario de prueba.",
    endpoint: "Dirección",
    answers: "Respuestas",
    answerOk: "200: el mensaje se guardó y entró en la cola de la conexión; responde el id del mensaje.",
    answerNumber: "400 ERR_WAPP_INVALID_CONTACT: el número no tiene el formato de arriba.",
    answerToken: "401 ERR_INVALID_TOKEN: ninguna conexión tiene este token.",
    answerRate: "429: demasiadas llamadas con este token en un minuto; intente de nuevo tras los segundos del encabezado Retry-After.",
    idempotency:
      "Para repetir una llamada con seguridad (caída de red), envíe el mismo encabezado Idempotency-Key: la segunda responde la primera y no se envía nada de nuevo.",
    history:
      "El mensaje queda en el historial del contacto: en la atención abierta, si la hay; si no, en una cerrada — ninguna atención queda esperando. Si el cliente responde, se abre una atención pendiente con el historial.",
    textTitle: "Mensajes de texto",
    textHelp: "JSON con number y body.",
    mediaTitle: "Mensajes con archivo",
    mediaHelp: "multipart/form-data con number, body (el nombre del archivo o la leyenda) y medias (uno o más archivos).",
    examples: "Ejemplos",
    test: "Prueba de envío",
    token: "Token",
    number: "Número",
    body: "Mensaje",
    file: "Archivo",
    chooseFile: "Elegir archivo",
    noFile: "Ningún archivo elegido",
    send: "Enviar",
    sent: "Mensaje enviado con éxito",
    invalidToken: "Token inválido: ninguna conexión tiene este token.",
    rateLimited: "Demasiadas llamadas con este token. Intente de nuevo en {{seconds}} s.",
    openApi: "Documento OpenAPI (todas las llamadas)",
  },
};

addFeatureTexts({ "pt-BR": pt, en, es });
