"use client";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset(): void }) {
  return (
    <section className="panel error-box" role="alert">
      <h1>Something went wrong</h1>
      <p>{error.message || "The page could not be loaded."}</p>
      {error.digest && <p className="muted small mono">ref {error.digest}</p>}
      <button type="button" className="btn" onClick={reset}>
        try again
      </button>
    </section>
  );
}
