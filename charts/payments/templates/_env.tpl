{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "payments.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "AMQP_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PAYER_ALIAS_KEY") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PAYER_ALIAS_PREVIOUS_KEYS" "optional" true) }}
{{ include "sika-lib.envVar" (dict "name" "PSP_CONNECTOR_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "psp-connector"))) }}
{{ include "sika-lib.envVar" (dict "name" "MERCHANTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "merchants"))) }}
{{ include "sika-lib.envVar" (dict "name" "CHECKOUT_BASE_URL" "value" (required "checkoutBaseUrl is required" .Values.checkoutBaseUrl)) }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "CHECKOUT_TOKEN_KEY") }}
{{- end -}}
