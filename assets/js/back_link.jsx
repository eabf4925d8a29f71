// The in-app back control: a React Router link to backTarget(stack, path).
import React from "react";
import { Link, useLocation } from "react-router";
import { backTarget } from "./back_target.js";

export function BackLink({ stack, children, ...props }) {
  const { pathname } = useLocation();
  return (
    <Link to={backTarget(stack, pathname)} prefetch="intent" {...props}>
      {children}
    </Link>
  );
}
