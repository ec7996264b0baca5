#!/bin/sh
# Stand-in for Prisma's schema engine, a binary from Prisma's own host that machines with
# only npm registry access cannot download. `prisma generate`
# only checks that an engine exists; anything that really needs it fails here, loudly.
echo "bootline: Prisma's schema engine is not installed here; migrations are applied by 'npm start' / lib/db/migrate.ts" >&2
exit 1
