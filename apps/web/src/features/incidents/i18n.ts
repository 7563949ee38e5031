import { addFeatureTexts } from "../../locales";

/** Texts of outage mode (incidents): the banner, the screen and its dialogs (pt-BR first). */
const pt = {
  incidents: {
    title: "Incidentes",
    subtitle: "Modo queda: quem escrever durante um incidente recebe o aviso uma vez; ao encerrar, todos recebem o “normalizado”.",
    open: "Abrir incidente",
    banner: "Incidente em andamento: {{title}}",
    area: "Área: {{area}}",
    expected: "Previsão de retorno: {{when}}",
    tickets: "{{count}} atendimento(s)",
    seeTickets: "Ver atendimentos",
    close: "Encerrar",
    empty: "Nenhum incidente registrado.",
    statusOpen: "Em andamento",
    statusClosed: "Encerrado",
    columns: {
      title: "Incidente",
      status: "Situação",
      opened: "Aberto em",
      customers: "Clientes",
      tickets: "Atendimentos",
      normalized: "Normalizado",
      actions: "Ações",
    },
    normalizedProgress: "{{sent}} enviado(s), {{pending}} na fila, {{skipped}} sem envio",
    form: {
      title: "Abrir incidente",
      name: "Título",
      namePlaceholder: "Ex.: Rompimento de fibra no Centro",
      message: "Mensagem aos clientes",
      messageHelp: "Enviada uma vez a cada cliente que escrever enquanto o incidente estiver aberto, antes dos bots e do menu.",
      messageDefault:
        "Identificamos uma falha na sua região e nossa equipe já está trabalhando para resolver. Não é preciso abrir chamado.",
      area: "Área afetada",
      tags: "Cidades ou etiquetas (separadas por vírgula)",
      expectedAt: "Previsão de retorno",
      submit: "Abrir",
      opened: "Incidente aberto.",
    },
    closeForm: {
      title: "Encerrar incidente",
      message: "Aviso de normalizado",
      messageHelp:
        "Enviado uma vez a cada cliente que escreveu durante o incidente, no ritmo de envios não solicitados; quem pediu SAIR não recebe.",
      messageDefault: "✅ Normalizado: {{title}}. O serviço já foi restabelecido. Obrigado pela paciência!",
      closeTickets: "Finalizar também os atendimentos do incidente ({{count}})",
      submit: "Encerrar",
      closed: "Incidente encerrado. Os avisos de normalizado estão na fila.",
    },
  },
};

const en: typeof pt = {
  incidents: {
    title: "Incidents",
    subtitle: "Outage mode: whoever writes during an incident gets the notice once; on closing, everyone gets the “back to normal” notice.",
    open: "Open incident",
    banner: "Ongoing incident: {{title}}",
    area: "Area: {{area}}",
    expected: "Expected back: {{when}}",
    tickets: "{{count}} ticket(s)",
    seeTickets: "See tickets",
    close: "Close",
    empty: "No incidents recorded.",
    statusOpen: "Ongoing",
    statusClosed: "Closed",
    columns: {
      title: "Incident",
      status: "Status",
      opened: "Opened",
      customers: "Customers",
      tickets: "Tickets",
      normalized: "Back to normal",
      actions: "Actions",
    },
    normalizedProgress: "{{sent}} sent, {{pending}} queued, {{skipped}} not sent",
    form: {
      title: "Open incident",
      name: "Title",
      namePlaceholder: "E.g. Fibre cut downtown",
      message: "Message to customers",
      messageHelp: "Sent once to every customer who writes while the incident is open, before the bots and the menu.",
      messageDefault:
        "Identificamos uma falha na sua região e nossa equipe já está trabalhando para resolver. Não é preciso abrir chamado.",
      area: "Affected area",
      tags: "Cities or tags (comma separated)",
      expectedAt: "Expected back",
      submit: "Open",
      opened: "Incident opened.",
    },
    closeForm: {
      title: "Close incident",
      message: "Back-to-normal notice",
      messageHelp:
        "Sent once to every customer who wrote during the incident, at the unsolicited-send pace; those who asked SAIR get nothing.",
      messageDefault: "✅ Normalizado: {{title}}. O serviço já foi restabelecido. Obrigado pela paciência!",
      closeTickets: "Also finish the incident's tickets ({{count}})",
      submit: "Close",
      closed: "Incident closed. The back-to-normal notices are queued.",
    },
  },
};

const es: typeof pt = {
  incidents: {
    title: "Incidentes",
    subtitle: "Modo caída: quien escriba durante un incidente recibe el aviso una vez; al cerrarlo, todos reciben el “normalizado”.",
    open: "Abrir incidente",
    banner: "Incidente en curso: {{title}}",
    area: "Área: {{area}}",
    expected: "Previsión de retorno: {{when}}",
    tickets: "{{count}} atención(es)",
    seeTickets: "Ver atenciones",
    close: "Cerrar",
    empty: "No hay incidentes registrados.",
    statusOpen: "En curso",
    statusClosed: "Cerrado",
    columns: {
      title: "Incidente",
      status: "Estado",
      opened: "Abierto el",
      customers: "Clientes",
      tickets: "Atenciones",
      normalized: "Normalizado",
      actions: "Acciones",
    },
    normalizedProgress: "{{sent}} enviado(s), {{pending}} en cola, {{skipped}} sin envío",
    form: {
      title: "Abrir incidente",
      name: "Título",
      namePlaceholder: "Ej.: Corte de fibra en el centro",
      message: "Mensaje a los clientes",
      messageHelp: "Se envía una vez a cada cliente que escriba mientras el incidente esté abierto, antes de los bots y del menú.",
      messageDefault:
        "Identificamos uma falha na sua região e nossa equipe já está trabalhando para resolver. Não é preciso abrir chamado.",
      area: "Área afectada",
      tags: "Ciudades o etiquetas (separadas por coma)",
      expectedAt: "Previsión de retorno",
      submit: "Abrir",
      opened: "Incidente abierto.",
    },
    closeForm: {
      title: "Cerrar incidente",
      message: "Aviso de normalizado",
      messageHelp:
        "Se envía una vez a cada cliente que escribió durante el incidente, al ritmo de los envíos no solicitados; quien pidió SAIR no lo recibe.",
      messageDefault: "✅ Normalizado: {{title}}. O serviço já foi restabelecido. Obrigado pela paciência!",
      closeTickets: "Finalizar también las atenciones del incidente ({{count}})",
      submit: "Cerrar",
      closed: "Incidente cerrado. Los avisos de normalizado están en cola.",
    },
  },
};

addFeatureTexts({ "pt-BR": pt, en, es });
