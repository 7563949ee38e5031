import { addFeatureTexts } from "../../locales";

/** The /ChatBot screen's texts (pt-BR first; the spec's Portuguese words verbatim). */
const pt = {
  chatbot: {
    title: "Chatbot",
    subtitle: "Respostas automáticas por atalho e áudios para enviar nas conversas.",
    chatTitle: "Respostas do chatbot",
    audioTitle: "Áudios",
    shortcut: "Atalho",
    message: "Mensagem",
    image: "Imagem",
    titulo: "Título",
    audio: "Áudio",
    add: "Adicionar",
    upload: "Enviar arquivo",
    uploading: "Enviando arquivo",
    uploadFailed: "Upload falhou",
    noFile: "Sem arquivo",
    preview: "Pré-visualização",
    saved: "Salvo com sucesso!",
    deleted: "Excluído com sucesso!",
    confirmDelete: "Confirma excluir este item?",
    chatEmpty: "Nenhuma resposta cadastrada. Quando o cliente enviar exatamente o atalho, recebe a mensagem e a imagem.",
    audioEmpty: "Nenhum áudio cadastrado. Os áudios aparecem para os atendentes ao lado das respostas rápidas.",
  },
};
type Texts = typeof pt;

const en: Texts = {
  chatbot: {
    title: "Chatbot",
    subtitle: "Automatic answers by shortcut, and audio clips to send in conversations.",
    chatTitle: "Chatbot answers",
    audioTitle: "Audio clips",
    shortcut: "Shortcut",
    message: "Message",
    image: "Image",
    titulo: "Title",
    audio: "Audio",
    add: "Add",
    upload: "Upload file",
    uploading: "Uploading file",
    uploadFailed: "Upload failed",
    noFile: "No file",
    preview: "Preview",
    saved: "Saved!",
    deleted: "Deleted!",
    confirmDelete: "Delete this item?",
    chatEmpty: "No answers yet. A customer who sends exactly the shortcut gets the message and the image.",
    audioEmpty: "No audio clips yet. Agents see them next to the quick answers.",
  },
};

const es: Texts = {
  chatbot: {
    title: "Chatbot",
    subtitle: "Respuestas automáticas por atajo y audios para enviar en las conversaciones.",
    chatTitle: "Respuestas del chatbot",
    audioTitle: "Audios",
    shortcut: "Atajo",
    message: "Mensaje",
    image: "Imagen",
    titulo: "Título",
    audio: "Audio",
    add: "Agregar",
    upload: "Subir archivo",
    uploading: "Subiendo archivo",
    uploadFailed: "La subida falló",
    noFile: "Sin archivo",
    preview: "Vista previa",
    saved: "¡Guardado!",
    deleted: "¡Eliminado!",
    confirmDelete: "¿Eliminar este elemento?",
    chatEmpty: "Ninguna respuesta registrada. Si el cliente envía exactamente el atajo, recibe el mensaje y la imagen.",
    audioEmpty: "Ningún audio registrado. Los agentes los ven junto a las respuestas rápidas.",
  },
};

addFeatureTexts({ "pt-BR": pt, en, es });
