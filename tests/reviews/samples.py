"""A small, real-looking data processing agreement (Art. 28(3) GDPR) to upload and review."""

DPA_TEXT = """# Data Processing Agreement

Between Northwind Retail GmbH, Hauptstrasse 1, 10115 Berlin (the "Controller") and
CloudMail Ltd, 5 Harbour Street, Dublin (the "Processor").

## 1. Subject-matter and duration

The subject-matter of the processing is the sending of newsletters and transactional
e-mails on behalf of the Controller. The processing lasts for the term of the main service
agreement dated 1 March 2025.

## 2. Nature and purpose of the processing

The Processor stores e-mail addresses and names and sends e-mails on the Controller's
behalf, for the purpose of customer communication.

## 3. Type of personal data and categories of data subjects

Personal data: names, e-mail addresses, opening and click statistics. Data subjects: the
Controller's customers and newsletter subscribers.

## 4. Instructions

The Processor processes the personal data only on documented instructions from the
Controller, including with regard to transfers of personal data to a third country. The
Processor shall immediately inform the Controller if, in its opinion, an instruction
infringes the GDPR or other Union or Member State data protection provisions.

## 5. Confidentiality

The Processor ensures that persons authorised to process the personal data have committed
themselves to confidentiality or are under an appropriate statutory obligation of
confidentiality.

## 6. Security of processing

The Processor takes all measures required pursuant to Article 32 GDPR, in particular
encryption of personal data at rest and in transit, access control and regular testing of
the effectiveness of the measures.

## 7. Sub-processors

The Processor shall not engage another processor without prior specific or general written
authorisation of the Controller. The Processor shall inform the Controller of any intended
changes concerning the addition or replacement of other processors, giving the Controller
the opportunity to object to such changes. The Processor imposes the same data protection
obligations on every sub-processor by contract.

## 8. Assistance with data subject rights

Taking into account the nature of the processing, the Processor assists the Controller by
appropriate technical and organisational measures for the fulfilment of the Controller's
obligation to respond to requests for exercising the data subject's rights.

## 9. Assistance with security, breaches and impact assessments

The Processor assists the Controller in ensuring compliance with the obligations pursuant
to Articles 32 to 36 GDPR. The Processor notifies the Controller without undue delay after
becoming aware of a personal data breach.

## 10. Deletion or return at the end of the services

At the choice of the Controller, the Processor deletes or returns all the personal data to
the Controller after the end of the provision of services relating to processing, and
deletes existing copies unless Union or Member State law requires storage.

## 11. Information and audits

The Processor makes available to the Controller all information necessary to demonstrate
compliance with Article 28 GDPR and allows for and contributes to audits, including
inspections, conducted by the Controller or another auditor mandated by the Controller.
"""
