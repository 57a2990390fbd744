import type { AliasProblem } from '../app/submit-alias';
import type { Outcome, RetryNotice } from '../domain/screen';

export type ErrorPageKind = 'not_found' | 'forbidden' | 'bad_request' | 'unavailable' | 'internal';

/**
 * Every word the customer reads, in French: the working language of the UEMOA and of its banks' apps.
 * One place, so the tone stays consistent and a translation is one file.
 */
export const COPY = {
  language: 'fr',
  brand: 'Sika',
  footer: 'Paiement instantané PI-SPI · Sika',
  testMode: 'Mode test : aucun argent ne sera débité.',
  amount: 'Montant',
  reference: 'Référence',
  description: 'Motif',
  form: {
    title: (amount: string) => `Paiement de ${amount}`,
    heading: (amount: string) => `Payer ${amount}`,
    label: 'Votre numéro de téléphone ou votre identifiant PI-SPI',
    hintBefore: 'Numéro au format international, par exemple ',
    hintExample: '+225 07 00 00 00 01',
    hintAfter: ', ou identifiant de paiement (lettres, chiffres et tirets).',
    submit: 'Envoyer la demande de paiement',
    explain:
      'Vous recevrez la demande dans l’application de votre banque ou de votre portefeuille mobile. Rien n’est débité sans votre validation.',
    errorTitlePrefix: 'Erreur : ',
  },
  notices: {
    previous_declined:
      'Votre demande précédente a été refusée. Vous pouvez réessayer, avec le même alias ou un autre.',
    previous_expired:
      'Votre demande précédente a expiré sans être validée. Vous pouvez en envoyer une nouvelle.',
    previous_failed:
      'Votre demande précédente n’a pas pu être transmise. Vous pouvez réessayer, avec le même alias ou un autre.',
    previous_alias_unknown:
      'L’alias saisi n’est connu d’aucune banque ni d’aucun portefeuille PI-SPI. Vérifiez-le ou saisissez-en un autre.',
  } satisfies Record<RetryNotice, string>,
  problems: {
    alias_missing: 'Saisissez votre numéro de téléphone ou votre identifiant PI-SPI.',
    alias_invalid:
      'Cet alias n’est pas valide. Saisissez un numéro au format international (+, indicatif du pays à 3 chiffres, puis 8 à 10 chiffres) ou un identifiant de 1 à 36 lettres, chiffres ou tirets.',
    alias_unknown:
      'Cet alias n’est connu d’aucune banque ni d’aucun portefeuille PI-SPI. Vérifiez-le ou saisissez-en un autre.',
    too_many_attempts: 'Ce paiement a atteint le nombre maximal de tentatives.',
    unavailable: 'Le service est momentanément indisponible. Réessayez dans un instant.',
  } satisfies Record<AliasProblem, string>,
  waiting: {
    title: 'En attente de votre validation',
    heading: 'Validez le paiement dans votre application',
    sending: 'Envoi de la demande de paiement à votre banque…',
    sent: 'La demande de paiement a été envoyée à votre banque ou à votre portefeuille mobile. Ouvrez son application pour la valider.',
    automatic: 'Cette page se met à jour automatiquement.',
    refresh: 'Actualiser maintenant',
  },
  paid: {
    title: 'Paiement accepté',
    heading: 'Paiement accepté',
    text: 'Merci. Vous pouvez retourner à la boutique.',
  },
  outcomes: {
    declined: {
      heading: 'Paiement refusé',
      text: 'La demande de paiement a été refusée. Aucun montant n’a été débité.',
    },
    expired: {
      heading: 'Délai de paiement dépassé',
      text: 'Le délai pour payer est écoulé. Aucun montant n’a été débité.',
    },
    canceled: { heading: 'Paiement annulé', text: 'Le marchand a annulé ce paiement.' },
    failed: {
      heading: 'Le paiement n’a pas abouti',
      text: 'Une erreur technique est survenue du côté de la banque. Aucun montant n’a été débité.',
    },
    attempts_exhausted: {
      heading: 'Nombre maximal de tentatives atteint',
      text: 'Ce paiement n’accepte plus de nouvelle demande.',
    },
  } satisfies Record<Outcome, { heading: string; text: string }>,
  cancel: 'Annuler et retourner à la boutique',
  abandon: 'Abandonner et retourner à la boutique',
  back: 'Retourner à la boutique',
  errors: {
    not_found: {
      heading: 'Page introuvable',
      text: 'Ce lien de paiement n’existe pas. Vérifiez l’adresse ou contactez le marchand.',
    },
    forbidden: {
      heading: 'Requête refusée',
      text: 'Pour votre sécurité, le formulaire doit être envoyé depuis la page de paiement. Rouvrez le lien de paiement.',
    },
    bad_request: {
      heading: 'Requête invalide',
      text: 'La requête n’a pas pu être lue. Rouvrez le lien de paiement.',
    },
    unavailable: {
      heading: 'Service indisponible',
      text: 'Le service est momentanément indisponible. Réessayez dans un instant.',
    },
    internal: {
      heading: 'Une erreur est survenue',
      text: 'Réessayez dans un instant. Si le problème persiste, contactez le marchand.',
    },
  } satisfies Record<ErrorPageKind, { heading: string; text: string }>,
  requestId: 'Identifiant de la requête :',
} as const;
