package loadtest

import (
	"os"
	"path/filepath"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/audit"
)

// AuditReport is what the in-process daemon's audit trail wrote, and
// what its files held once it had stopped: lines by kind (rotation drops
// the oldest files) and the files' sizes.
type AuditReport struct {
	ActsWritten     int64  `json:"actLinesWritten"`
	ControlsWritten int64  `json:"controlLinesWritten"`
	Acts            int64  `json:"actLinesKept"`
	Controls        int64  `json:"controlLinesKept"`
	Files           int    `json:"files"`
	Bytes           int64  `json:"bytes"`
	MaxFileBytes    int64  `json:"largestFileBytes"`
	Error           string `json:"error,omitempty"`
}

// auditOf reads the trail under dir.
func auditOf(dir string) *AuditReport {
	rep := &AuditReport{}
	list, err := audit.Read(dir, messages.AuditFilter{Limit: messages.AuditMaxLimit})
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	for _, r := range list {
		if r.Kind == messages.AuditAct {
			rep.Acts++
		} else {
			rep.Controls++
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, audit.Dir, audit.File+"*"))
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			rep.Files++
			rep.Bytes += st.Size()
			rep.MaxFileBytes = max(rep.MaxFileBytes, st.Size())
		}
	}
	return rep
}
