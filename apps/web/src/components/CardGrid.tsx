import { INFINITE_SCROLL_THRESHOLD_PX } from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { type ReactNode, useCallback, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

interface CardGridProps<T> {
  items: T[];
  renderCard: (item: T) => ReactNode;
  getKey: (item: T) => string | number;
  loading: boolean;
  error?: boolean;
  onRetry?: () => void;
  empty: string;
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
  label: string;
}

/** Whether a scroll box is within `threshold` px of its bottom. */
export function nearBottom(el: Pick<HTMLElement, "scrollHeight" | "scrollTop" | "clientHeight">, threshold = INFINITE_SCROLL_THRESHOLD_PX) {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;
}

/**
 * A scrolling grid of cards that reflows from one column at 375 px; the next page loads when the
 * scroll comes within 100 px of the bottom (or when the first page does not fill the box).
 */
export function CardGrid<T>(p: CardGridProps<T>) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const { hasMore, loadingMore, onLoadMore } = p;
  const check = useCallback(() => {
    const el = ref.current;
    if (el && hasMore && !loadingMore && onLoadMore && nearBottom(el)) onLoadMore();
  }, [hasMore, loadingMore, onLoadMore]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check when the item count changes
  useEffect(() => {
    check();
  }, [check, p.items.length]);

  return (
    <Box
      ref={ref}
      onScroll={check}
      role="region"
      aria-label={p.label}
      aria-busy={p.loading}
      sx={{ flex: 1, minHeight: 0, overflowY: "auto", px: { xs: 2, sm: 3 }, pb: 3 }}
    >
      {p.loading ? (
        <Grid>
          {Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static skeletons
            <Skeleton key={i} variant="rounded" height={132} />
          ))}
        </Grid>
      ) : p.error ? (
        <Box sx={{ textAlign: "center", py: 8 }}>
          <Typography color="text.secondary" gutterBottom>
            {t("common.loadError")}
          </Typography>
          {p.onRetry && <Button onClick={p.onRetry}>{t("common.retry")}</Button>}
        </Box>
      ) : p.items.length === 0 ? (
        <Typography color="text.secondary" sx={{ textAlign: "center", py: 8 }} data-testid="empty-state">
          {p.empty}
        </Typography>
      ) : (
        <Grid>
          {p.items.map((item) => (
            <Box key={p.getKey(item)} sx={{ minWidth: 0 }}>
              {p.renderCard(item)}
            </Box>
          ))}
        </Grid>
      )}
      {p.loadingMore && (
        <Box sx={{ display: "flex", justifyContent: "center", py: 2 }}>
          <CircularProgress size={24} aria-label={t("common.loadMore")} />
        </Box>
      )}
    </Box>
  );
}

function Grid({ children }: { children: ReactNode }) {
  return <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 260px), 1fr))" }}>{children}</Box>;
}
