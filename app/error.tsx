"use client";
/**
 * The error boundary of every page: a plain sentence, never the error's own text or stack (a
 * render error's message can hold server paths or database text). An API's answer (`ApiClientError`,
 * whose message is the API's plain sentence: lib/http/errors.ts) is shown as it is; anything else
 * gets a reference (Next.js's digest, the same as in the server log) when there is one.
 */
import { ApiClientError } from "@/components/data/fetch-json";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset(): void }) {
  return (
    <section className="panel error-box" role="alert">
      <h1>Something went wrong</h1>
      <p>{error instanceof ApiClientError ? error.message : "The page could not be loaded."}</p>
      {error.digest && <p className="muted small mono">ref {error.digest}</p>}
      <button type="button" className="btn" onClick={reset}>
        try again
      </button>
    </section>
  );
}
