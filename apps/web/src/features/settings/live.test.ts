import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { answer, cacheUnderTest } from "../../lib/query-testing";
import { type SettingsMap, settingsLive, settingsQuery } from "./api/get-settings";

// The settings map is read once per session (staleTime Infinity) and kept by the `settings` event:
// an event that lands while a read is under way cannot be lost to that read's older answer.

const t = cacheUnderTest();

/** The app's settings map observed; GET /settings answers each read when the test says. */
function app() {
  const reads: { answer: (m: SettingsMap) => void }[] = [];
  const observer = new QueryObserver(t.client, {
    ...settingsQuery,
    queryFn: () => new Promise<SettingsMap>((resolve) => reads.push({ answer: resolve })),
  });
  t.stops.push(observer.subscribe(() => undefined));
  const live = settingsLive(t.client);
  t.stops.push(live.dispose);
  const value = (key: string) => t.client.getQueryData<SettingsMap>(settingsQuery.queryKey)?.[key];
  return { reads, live, value };
}

describe("the settings map beside the settings event", () => {
  it("a setting changed during the session's first read ends on the new value", async () => {
    const { reads, live, value } = app();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toHaveLength(1);
    // an admin turns the schedules screen off while this browser reads the settings (nothing cached yet)
    live.setting({ key: "scheduleType", value: "disabled" });
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(1);
    await answer(reads[0], { scheduleType: "enabled" });
    expect(value("scheduleType")).toBe("enabled");
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(2);
    await answer(reads[1], { scheduleType: "disabled" });
    expect(value("scheduleType")).toBe("disabled");
  });

  it("a setting changed while nothing is being read is merged and reads nothing", async () => {
    const { reads, live, value } = app();
    await vi.advanceTimersByTimeAsync(0);
    await answer(reads[0], { scheduleType: "enabled", userRating: "disabled" });
    live.setting({ key: "scheduleType", value: "disabled" });
    expect(value("scheduleType")).toBe("disabled");
    expect(value("userRating")).toBe("disabled");
    await vi.advanceTimersByTimeAsync(2000);
    expect(reads).toHaveLength(1);
  });
});
