// Package images fetches the images (and PDF files) a catalog names, for
// an import to upload as product files: http and https URLs, and paths
// under one local folder; nothing else is read (no file: URLs, no other
// schemes, no path out of the folder).
//
// A Fetcher fetches each source once however many rows name it, a few at
// a time and ahead of the order it will be asked for, beside the import's
// own requests (downloads cost the service's rate nothing). A download
// follows a few redirects, times out, and is refused when its body is
// larger than a limit or its content, sniffed from its first bytes and
// not taken from its name, is not an image or a PDF. What was fetched
// waits on disk, not in memory, until every use of it is released: memory
// stays bounded whatever the catalog's images weigh.
package images
