{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "merchants.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "API_KEY_PEPPER") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "SMTP_URL" "optional" true) }}
{{- end -}}
