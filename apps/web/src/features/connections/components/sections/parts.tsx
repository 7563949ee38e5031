import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { type Control, Controller, type Path } from "react-hook-form";
import type { Output, Values } from "../connection-form";

/** A switch bound to a yes/no field of the form. */
export function SwitchField({ control, name, label }: { control: Control<Values, unknown, Output>; name: Path<Values>; label: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          control={<Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />}
          label={label}
        />
      )}
    />
  );
}

/** A section's title: an overline and a rule, as the settings screen's groups. */
export function SectionTitle({ title }: { title: string }) {
  return (
    <Box sx={{ pt: 1 }}>
      <Typography variant="overline" color="text.secondary" component="h3" sx={{ lineHeight: 2 }}>
        {title}
      </Typography>
      <Divider />
    </Box>
  );
}
