// Issue 53 (d): the composer shows the message limit while typing, from 90 % of it; over it, it says so.
import { MESSAGE_BODY_MAX } from "@balcao/contract";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setLanguage } from "../../locales";
import "./i18n";
import { MessageLimitCounter, messageLimit } from "./components/MessageLimit";

beforeAll(() => setLanguage("pt-BR"));
afterEach(cleanup);

describe("the message limit", () => {
  it("is the contract's: hidden far from it, shown near it, over it blocks the send", () => {
    expect(messageLimit(10)).toEqual({ show: false, over: false, left: MESSAGE_BODY_MAX - 10 });
    expect(messageLimit(MESSAGE_BODY_MAX).show).toBe(true);
    expect(messageLimit(MESSAGE_BODY_MAX).over).toBe(false);
    expect(messageLimit(MESSAGE_BODY_MAX + 1).over).toBe(true);
  });

  it("the counter: nothing for a short text, the count near the limit, what to do over it", () => {
    render(<MessageLimitCounter length={50} max={100} />);
    expect(screen.queryByTestId("message-limit")).toBeNull();
    cleanup();
    render(<MessageLimitCounter length={95} max={100} />);
    expect(screen.getByTestId("message-limit").textContent).toBe("95 / 100 caracteres");
    cleanup();
    render(<MessageLimitCounter length={130} max={100} />);
    expect(screen.getByTestId("message-limit").textContent).toBe("30 caracteres além do limite de 100: encurte a mensagem para enviar.");
  });
});
