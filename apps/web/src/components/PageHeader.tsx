import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** Title, an optional count and the screen's actions; wraps under the title on narrow screens. */
export function PageHeader({ title, subtitle, children }: { title: string; subtitle?: string; children?: ReactNode }) {
  return (
    <Box
      sx={{
        display: "flex",
        flexWrap: "wrap",
        alignItems: "center",
        gap: 1.5,
        px: { xs: 2, sm: 3 },
        pt: { xs: 2, sm: 3 },
        pb: 2,
      }}
    >
      <Box sx={{ flex: "1 1 auto", minWidth: 0 }}>
        <Typography component="h1" variant="h5" fontWeight={700} noWrap>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        )}
      </Box>
      <Box
        sx={{ display: "flex", flexWrap: { xs: "wrap", md: "nowrap" }, gap: 1, alignItems: "center", width: { xs: "100%", md: "auto" } }}
      >
        {children}
      </Box>
    </Box>
  );
}
