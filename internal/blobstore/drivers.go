package blobstore

// The drivers a blob URL may name. Each registers its scheme with gocloud.dev/blob
// when imported, so Open accepts file://, s3://, gs:// and azblob:// URLs.
import (
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/s3blob"
)
