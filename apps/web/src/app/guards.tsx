import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { FullPageSpinner } from "../components/FullPageSpinner";
import { isAdmin, isSupervisor, useAuth } from "../features/auth";

/** Signed-out users go to /login. */
export function PrivateRoute() {
  const { user, loading, justSignedIn, clearJustSignedIn } = useAuth();
  const location = useLocation();
  useEffect(() => {
    if (user && justSignedIn) clearJustSignedIn();
  }, [user, justSignedIn, clearJustSignedIn]);
  if (loading) return <FullPageSpinner />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Signed-in users on a public route go to /; right after signing in, to /tickets. */
export function PublicRoute() {
  const { user, loading, justSignedIn } = useAuth();
  if (loading) return <FullPageSpinner />;
  if (user) return <Navigate to={justSignedIn ? "/tickets" : "/"} replace />;
  return <Outlet />;
}

/** Non-admins on an admin-only route go to /tickets. */
export function AdminRoute() {
  const { user } = useAuth();
  if (!isAdmin(user)) return <Navigate to="/tickets" replace />;
  return <Outlet />;
}

/** Agents on a route for admins and supervisors go to /tickets. */
export function SupervisorRoute() {
  const { user } = useAuth();
  if (!isSupervisor(user)) return <Navigate to="/tickets" replace />;
  return <Outlet />;
}
