import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditOutlinedIcon from "@mui/icons-material/EditOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardActions from "@mui/material/CardActions";
import CardContent from "@mui/material/CardContent";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface EntityCardProps {
  avatar?: ReactNode;
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  onEdit?: () => void;
  onDelete?: () => void;
  testId?: string;
}

/** One card of a card grid: avatar, title, details, and edit/delete actions. */
export function EntityCard({ avatar, title, subtitle, children, onEdit, onDelete, testId }: EntityCardProps) {
  const { t } = useTranslation();
  return (
    <Card data-testid={testId} sx={{ height: "100%", display: "flex", flexDirection: "column" }}>
      <CardContent sx={{ flex: 1, display: "flex", gap: 1.5, alignItems: "flex-start", pb: 1, minWidth: 0 }}>
        {avatar}
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="subtitle1" fontWeight={600} noWrap title={title}>
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" noWrap component="div">
              {subtitle}
            </Typography>
          )}
          {children}
        </Box>
      </CardContent>
      {(onEdit || onDelete) && (
        <CardActions sx={{ justifyContent: "flex-end", pt: 0 }}>
          {onEdit && (
            <Tooltip title={t("common.edit")}>
              <IconButton size="small" aria-label={`${t("common.edit")} ${title}`} onClick={onEdit}>
                <EditOutlinedIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {onDelete && (
            <Tooltip title={t("common.delete")}>
              <IconButton size="small" color="error" aria-label={`${t("common.delete")} ${title}`} onClick={onDelete}>
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </CardActions>
      )}
    </Card>
  );
}
