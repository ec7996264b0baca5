#!/bin/sh
# Stand-in for Prisma's schema engine, which cannot be downloaded on machines without
# network access (see DESIGN.md "Prisma without network access"). `prisma generate`
# only checks that an engine exists; anything that really needs it fails here, loudly.
echo "bootline: Prisma's schema engine is not installed here; migrations are applied by 'npm start' / lib/db/migrate.ts" >&2
exit 1
