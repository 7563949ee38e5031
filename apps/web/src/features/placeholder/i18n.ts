import { addFeatureTexts } from "../../locales";

/** Texts of the not-found page (pt-BR first); its title is common.notFound, "Página não encontrada". */
const pt = {
  notFoundPage: {
    text: "O endereço abaixo não existe ou mudou de lugar. Confira o link ou volte aos atendimentos.",
    back: "Voltar aos atendimentos",
  },
};

type Texts = typeof pt;

const en: Texts = {
  notFoundPage: {
    text: "The address below does not exist or has moved. Check the link or go back to the inbox.",
    back: "Back to the inbox",
  },
};

const es: Texts = {
  notFoundPage: {
    text: "La dirección de abajo no existe o cambió de lugar. Revisa el enlace o vuelve a las atenciones.",
    back: "Volver a las atenciones",
  },
};

addFeatureTexts({ "pt-BR": pt, en, es });
