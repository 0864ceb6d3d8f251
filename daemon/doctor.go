package daemon

import (
	"context"
	"os"

	"github.com/buddi-dev/buddi/doctor"
	"github.com/buddi-dev/buddi/messages"
)

// doctor is `buddi doctor` as this running buddi sees itself, for the
// dashboard's settings: the store is the one it holds.
func (d *Daemon) doctor(ctx context.Context) messages.DoctorRows {
	done := make(chan messages.DoctorRows, 1)
	go func() {
		c := d.settings.config()
		done <- doctor.Rows(c, doctor.Options{TokenFile: OwnerTokenFile,
			InUse:    func() (string, int, bool) { return d.addr, os.Getpid(), true },
			Computer: func(ctx context.Context) messages.Permissions { return ComputerPermissions(ctx, c, false) }})
	}()
	select {
	case rows := <-done:
		return rows
	case <-ctx.Done():
		return messages.DoctorRows{{Name: "doctor", Level: doctor.Warning, Text: "The checks did not finish in time; run `buddi doctor` on the computer buddi runs on."}}
	}
}
