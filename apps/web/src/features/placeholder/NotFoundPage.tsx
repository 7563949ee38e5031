import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ComingSoonPage } from "./ComingSoonPage";

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <ComingSoonPage titleKey="common.notFound" text=" " />
      <Button component={Link} to="/" sx={{ alignSelf: "center" }}>
        {t("common.backHome")}
      </Button>
    </>
  );
}
