// Package telegramtest is a fake Telegram Bot API on 127.0.0.1 for the
// Telegram surface's tests, and a clock they advance themselves. The fake
// records every call (its method, its fields, the files of an upload, read
// with a multipart reader, since telebot sends a photo's part with an empty
// file name), serves updates the test sends through a held getUpdates, and
// answers scripted failures (errors, 429 with retry_after, garbage) when
// told to. Both clean up through t.Cleanup.
package telegramtest
