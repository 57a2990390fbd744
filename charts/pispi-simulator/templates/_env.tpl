{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "pispi-simulator.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "SIMULATOR_CLIENT_ID") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "SIMULATOR_CLIENT_SECRET") }}
{{- end -}}
