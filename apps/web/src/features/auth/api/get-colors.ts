import { type ColorsAnswer, SETTING_DEFAULTS } from "@balcao/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { http } from "../../../api/http";

export const colorsQuery = queryOptions({
  queryKey: ["colors"],
  queryFn: () => http.get<ColorsAnswer>("/colors/"),
  staleTime: 5 * 60_000,
  // A failure only falls back to the default colours (spec: only logged).
  meta: { silent: true },
  retry: false,
});

export function useLoginColors() {
  const { data } = useQuery(colorsQuery);
  return {
    primary: data?.loginPagePrimaryColor || SETTING_DEFAULTS.loginPagePrimaryColor,
    secondary: data?.loginPageSecondaryColor || SETTING_DEFAULTS.loginPageSecondaryColor,
    logo: data?.logoLogin || "/brand.svg",
  };
}

/** Whether the login page offers sign-up: only once GET /colors says userCreation is enabled. */
export function useSignupEnabled(): boolean {
  const { data } = useQuery(colorsQuery);
  return data?.userCreation === "enabled";
}
