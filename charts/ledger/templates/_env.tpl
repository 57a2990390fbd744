{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "ledger.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "AMQP_URL") }}
{{- end -}}
