import "../i18n";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../../components/PageHeader";
import { ContractsTable } from "./ContractsTable";
import { TemplatesEditor } from "./TemplatesEditor";

/** /contratos (admins, when contracts are enabled): every contract, and the templates. */
export default function ContractsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: "flex", flexDirection: "column", gap: 2, minWidth: 0 }}>
      <PageHeader title={t("contracts.title")} />
      <Tabs value={tab} onChange={(_e, v) => setTab(v)}>
        <Tab label={t("contracts.tabs.list")} />
        <Tab label={t("contracts.tabs.templates")} data-testid="contracts-templates-tab" />
      </Tabs>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 }, minWidth: 0 }}>
        {tab === 0 ? <ContractsTable screen /> : <TemplatesEditor />}
      </Paper>
    </Box>
  );
}
