package main

// The object store drivers, linked into the command only (package storage
// and the libraries on it carry none): each registers its URL scheme with
// gocloud.dev/blob, which package storage opens buckets through.
import (
	_ "gocloud.dev/blob/azureblob" // azblob:// URLs
	_ "gocloud.dev/blob/gcsblob"   // gs:// URLs
	_ "gocloud.dev/blob/s3blob"    // s3:// URLs
)
