package main

import (
	"fmt"

	"github.com/compose-spec/compose-go/v2/types"
)

// checkFiles: posts' file store as compose gives it (MM_FILESETTINGS_* overrides). On the local driver the
// directory must be a volume (a container's own filesystem is read-only here and lost with the container)
// and posts must run as one replica (another replica would not see the first one's files); on amazons3 a
// bucket must be named.
func checkFiles(name string, svc types.ServiceConfig) []string {
	driver, set := svc.Environment["MM_FILESETTINGS_DRIVERNAME"]
	if !set || driver == nil {
		return nil
	}
	var problems []string
	switch *driver {
	case "local":
		dir := ""
		if d := svc.Environment["MM_FILESETTINGS_DIRECTORY"]; d != nil {
			dir = *d
		}
		mounted := false
		for _, v := range svc.Volumes {
			if v.Target == dir && (v.Type == types.VolumeTypeVolume || v.Type == types.VolumeTypeBind) {
				mounted = true
			}
		}
		if !mounted {
			problems = append(problems, fmt.Sprintf("service %q: FileSettings DriverName=local in %q, which is no volume: uploaded files would be lost with the container (or refused on its read-only filesystem)", name, dir))
		}
		if svc.Deploy != nil && svc.Deploy.Replicas != nil && *svc.Deploy.Replicas > 1 {
			problems = append(problems, fmt.Sprintf("service %q: FileSettings DriverName=local with %d replicas: a file uploaded through one would be missing on the others (use FILES_DRIVER=amazons3)", name, *svc.Deploy.Replicas))
		}
	case "amazons3":
		if b := svc.Environment["MM_FILESETTINGS_AMAZONS3BUCKET"]; b == nil || *b == "" {
			problems = append(problems, fmt.Sprintf("service %q: FileSettings DriverName=amazons3 with no MM_FILESETTINGS_AMAZONS3BUCKET", name))
		}
	default:
		problems = append(problems, fmt.Sprintf("service %q: MM_FILESETTINGS_DRIVERNAME %q is neither local nor amazons3", name, *driver))
	}
	return problems
}
