import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { ReactNode } from "react";
import { textOn } from "../lib/contrast";

/** One choice: a name shown with its colour. */
export interface ColorOption {
  id: number;
  name: string;
  color: string;
}

interface Props {
  label: string;
  options: ColorOption[];
  value: number[] | undefined;
  onChange: (ids: number[]) => void;
  onBlur?: () => void;
  /** Under the field (e.g. what to do while there are no options yet). */
  helperText?: ReactNode;
  /** The open list's only line while there are no options. */
  emptyText?: string;
}

/** Picks several options (queues in the user and connection forms): each shown with its colour, chosen ones as coloured chips. */
export function ColorMultiSelect({ label, options, value, onChange, onBlur, helperText, emptyText }: Props) {
  const optionOf = (id: number) => options.find((q) => q.id === id);
  return (
    <TextField
      select
      label={label}
      value={value ?? []}
      onChange={(e) => onChange(e.target.value as unknown as number[])}
      onBlur={onBlur}
      helperText={helperText}
      slotProps={{
        formHelperText: { component: "div" } as object,
        select: {
          multiple: true,
          renderValue: (selected) => (
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
              {(selected as number[]).map((id) => {
                const q = optionOf(id);
                return <Chip key={id} size="small" label={q?.name ?? id} sx={{ bgcolor: q?.color, color: textOn(q?.color ?? "") }} />;
              })}
            </Box>
          ),
        },
      }}
    >
      {!options.length && emptyText && (
        <MenuItem disabled value="">
          {emptyText}
        </MenuItem>
      )}
      {options.map((q) => (
        <MenuItem key={q.id} value={q.id}>
          <Box component="span" sx={{ width: 12, height: 12, borderRadius: "50%", bgcolor: q.color, mr: 1, display: "inline-block" }} />
          {q.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
