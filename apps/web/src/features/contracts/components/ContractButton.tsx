import DescriptionIcon from "@mui/icons-material/Description";
import type { Ticket } from "@balcao/contract";
import { lazy, type ReactElement, Suspense, useState } from "react";

const ContractsDialog = lazy(() => import("./ContractsDialog"));

/**
 * The chat's Contrato action (core §2: owner, open ticket, contracts enabled — the caller decides
 * when to show it): `render` draws the button in the header's style; the dialog loads on first use.
 */
export function ContractAction({
  ticket,
  render,
}: {
  ticket: Ticket;
  render: (p: { icon: ReactElement; onClick: () => void }) => ReactElement;
}) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      {render({
        icon: <DescriptionIcon />,
        onClick: () => {
          setLoaded(true);
          setOpen(true);
        },
      })}
      {loaded && (
        <Suspense fallback={null}>
          <ContractsDialog ticket={ticket} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
