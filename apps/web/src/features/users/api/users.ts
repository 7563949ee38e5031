import type { User, UserCreateBody, UserUpdateBody, UsersAnswer } from "@balcao/contract";
import { SEARCH_MIN_CHARS } from "@balcao/contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { pagedQuery, useDeleteEntity, useLivePages, useSaveEntity } from "../../../lib/entity-api";
import { searchTerm } from "../../../lib/hooks";

export const usersKey = ["users"] as const;

/** Bot users named exactly 'bot' never show in the list. */
export const visibleUsers = (users: User[]) => users.filter((u) => u.name !== "bot");

export const usersQuery = (search: string) => pagedQuery<UsersAnswer>(usersKey, "/users", searchTerm(search, SEARCH_MIN_CHARS));

export function useUsers(search: string) {
  return useInfiniteQuery(usersQuery(search));
}

export function useUsersLive() {
  useLivePages("user", usersKey, "users", (p) =>
    p.action === "update" ? { replace: p.user } : p.action === "delete" ? { remove: p.userId } : "refetch",
  );
}

export const useSaveUser = () => useSaveEntity<UserCreateBody | UserUpdateBody, User>("/users", usersKey);

export const useDeleteUser = () => useDeleteEntity("/users", usersKey);
