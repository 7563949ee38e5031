import type { User, UserCreateBody, UserUpdateBody, UsersAnswer } from "@balcao/contract";
import { SEARCH_MIN_CHARS } from "@balcao/contract";
import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";
import { searchTerm } from "../../../lib/hooks";
import { removeFromPages, replaceInPages } from "../../../lib/infinite";

export const usersKey = ["users"] as const;

/** Bot users named exactly 'bot' never show in the list. */
export const visibleUsers = (users: User[]) => users.filter((u) => u.name !== "bot");

export const usersQuery = (search: string) => {
  const searchParam = searchTerm(search, SEARCH_MIN_CHARS);
  return infiniteQueryOptions({
    queryKey: [...usersKey, { searchParam }],
    queryFn: ({ pageParam, signal }) => http.get<UsersAnswer>("/users", { searchParam, pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
};

export function useUsers(search: string) {
  return useInfiniteQuery(usersQuery(search));
}

export function useUsersLive() {
  const queryClient = useQueryClient();
  useSocketEvent("user", (p) => {
    if (p.action === "update") {
      queryClient.setQueriesData<InfiniteData<UsersAnswer>>({ queryKey: usersKey }, (d) => replaceInPages(d, "users", p.user));
    } else if (p.action === "delete") {
      queryClient.setQueriesData<InfiniteData<UsersAnswer>>({ queryKey: usersKey }, (d) => removeFromPages(d, "users", p.userId));
    } else {
      void queryClient.invalidateQueries({ queryKey: usersKey });
    }
  });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: UserCreateBody | UserUpdateBody }) =>
      id ? http.put<User>(`/users/${id}`, body) : http.post<User>("/users", body),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`/users/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}
