-- Browser sessions (sign-in with BOOTLINE_AUTH_TOKEN): one row per signed-in browser. The cookie
-- holds a random id; only its SHA-256 is stored here, so a copy of the table signs no one in.
-- "tokenTag" is a hash of the token the session was opened with: a new token ends old sessions.
-- Rows are deleted at sign-out, and expired ones when a new session is made.
CREATE TABLE "Session" (
    "idHash" TEXT NOT NULL,
    "tokenTag" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "Session_pkey" PRIMARY KEY ("idHash")
);

CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");
