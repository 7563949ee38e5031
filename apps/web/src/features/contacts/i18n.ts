import { addFeatureTexts } from "../../locales";

/** The contact dialog's LGPD section (admins). */
const pt = {
  contactsLgpd: {
    title: "LGPD",
    help: "Exportar reúne tudo o que o Balcão guarda deste contato num arquivo ZIP. Apagar remove os dados pessoais e as mídias; os atendimentos ficam, sem conteúdo, para as contagens.",
    export: "Exportar dados",
    exported: "Arquivo ZIP gerado.",
    erase: "Apagar dados pessoais",
    confirmTitle: "Apagar os dados pessoais de {{name}}?",
    confirmText:
      "Nome, número, e-mail, informações adicionais, o texto e os arquivos de todas as mensagens, agendamentos, disparos e contratos não assinados serão apagados. Contratos assinados são mantidos, como exige a lei. Não é possível desfazer.",
    confirm: "Apagar dados",
    erased: "Dados pessoais apagados ({{messages}} mensagens, {{files}} arquivos).",
    keptContracts: "{{count}} contrato(s) assinado(s) mantido(s), como exige a lei.",
    erasedAt: "Dados pessoais apagados em {{when}}.",
  },
};
type Texts = typeof pt;

const en: Texts = {
  contactsLgpd: {
    title: "LGPD",
    help: "Export gathers everything Balcão holds on this contact in a ZIP file. Erase removes the personal data and media; the tickets stay, without content, for the counts.",
    export: "Export data",
    exported: "ZIP file ready.",
    erase: "Erase personal data",
    confirmTitle: "Erase the personal data of {{name}}?",
    confirmText:
      "Name, number, e-mail, extra information, the text and files of every message, schedules, bulk sends and unsigned contracts will be erased. Signed contracts are kept, as the law requires. This cannot be undone.",
    confirm: "Erase data",
    erased: "Personal data erased ({{messages}} messages, {{files}} files).",
    keptContracts: "{{count}} signed contract(s) kept, as the law requires.",
    erasedAt: "Personal data erased on {{when}}.",
  },
};

const es: Texts = {
  contactsLgpd: {
    title: "LGPD",
    help: "Exportar reúne todo lo que Balcão guarda de este contacto en un archivo ZIP. Borrar elimina los datos personales y los medios; las atenciones quedan, sin contenido, para los conteos.",
    export: "Exportar datos",
    exported: "Archivo ZIP generado.",
    erase: "Borrar datos personales",
    confirmTitle: "¿Borrar los datos personales de {{name}}?",
    confirmText:
      "Nombre, número, e-mail, información adicional, el texto y los archivos de todos los mensajes, agendamientos, envíos masivos y contratos no firmados serán borrados. Los contratos firmados se mantienen, como exige la ley. No se puede deshacer.",
    confirm: "Borrar datos",
    erased: "Datos personales borrados ({{messages}} mensajes, {{files}} archivos).",
    keptContracts: "{{count}} contrato(s) firmado(s) mantenido(s), como exige la ley.",
    erasedAt: "Datos personales borrados el {{when}}.",
  },
};

addFeatureTexts({ "pt-BR": pt, en, es });
