"use client";
/** Client-side providers: TanStack Query and nuqs (URL state) for the App Router. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { useState, type ReactNode } from "react";
import { z } from "zod";

// zod would probe for `new Function` (blocked by the pages' Content-Security-Policy, which has no
// 'unsafe-eval'); jitless parsing never evaluates code
z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <NuqsAdapter>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
