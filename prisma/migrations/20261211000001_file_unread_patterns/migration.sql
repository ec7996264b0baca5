-- The templates of a file's lines no format read (lib/patterns/unread.ts), JSON
-- [{"template", "count", "firstLine"}, ...]; NULL when every line was read (and for files stored before it).
ALTER TABLE "SourceFile" ADD COLUMN "unreadPatterns" TEXT;
