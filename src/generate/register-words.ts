/**
 * The words of the registers the generator draws from: occupations by era,
 * causes of death by age, and the qualifications a certifying doctor signs with.
 */
import type { ByEra } from './names.ts';

export const OCCUPATIONS: ByEra<readonly string[]> = {
  classic: [
    'General labourer', 'Coal miner', 'Housewife', 'Farm labourer', 'Clerk', 'Textile worker', 'Mill worker', 'Engineer', 'Railway porter', 'Bus conductor',
    'Domestic servant', 'Dock labourer', 'Steel worker', 'Shop assistant', 'Typist', 'Telephonist', 'Milkman', 'Fitter', 'Lorry driver', 'Farmer',
    'Bricklayer', 'Carpenter', 'Painter and decorator', 'Postman', 'Police constable', 'Machinist', 'Seamstress', 'Butcher', 'Baker', 'Tailor',
    'Coal merchant', 'Blacksmith', 'Insurance agent', 'Schoolteacher', 'Nurse', 'Boilermaker', 'Fisherman', 'Printer', 'Publican', 'Soldier',
  ],
  mid: [
    'Teacher', 'Nurse', 'Sales assistant', 'Secretary', 'Electrician', 'Lorry driver', 'Plumber', 'Mechanic', 'Accountant', 'Civil servant',
    'Police officer', 'Care assistant', 'Joiner', 'Plasterer', 'Hairdresser', 'Bus driver', 'Factory worker', 'Engineer', 'Shop manager', 'Receptionist',
    'Cleaner', 'Cook', 'Builder', 'Taxi driver', 'Postman', 'Bank clerk', 'Fitter', 'Welder', 'Warehouse operative', 'Solicitor',
    'Social worker', 'Chef', 'Doctor', 'Pharmacist', 'Quantity surveyor', 'Estate agent', 'Firefighter', 'Dental nurse', 'Self-employed', 'Unemployed',
  ],
  modern: [
    'Software developer', 'Teaching assistant', 'Customer service adviser', 'Project manager', 'Care worker', 'Retail assistant', 'Nurse', 'Teacher', 'Delivery driver', 'Warehouse operative',
    'IT consultant', 'Marketing executive', 'Graphic designer', 'Paramedic', 'Physiotherapist', 'Police officer', 'Electrician', 'Plumber', 'Accountant', 'Chef',
    'Barista', 'Personal trainer', 'Student', 'Engineer', 'Civil servant', 'Hairdresser', 'Beauty therapist', 'Scaffolder', 'Lecturer', 'Solicitor',
    'Doctor', 'Pharmacist', 'Social worker', 'Recruitment consultant', 'Data analyst', 'Architect', 'Bus driver', 'Nursery nurse', 'Self-employed', 'Unemployed',
  ],
};

export const CAUSES_OF_DEATH = {
  /** In the first four weeks. */
  neonatal: [
    'Extreme prematurity', 'Respiratory distress syndrome', 'Congenital heart disease', 'Neonatal sepsis', 'Hypoxic ischaemic encephalopathy', 'Congenital anomalies',
  ],
  /** From four weeks to a year. */
  infant: [
    'Sudden infant death syndrome', 'Unascertained', 'Congenital heart disease', 'Bronchiolitis', 'Meningitis', 'Complications of prematurity',
  ],
  young: [
    'Road traffic collision; accident', 'Drug overdose; misadventure', 'Acute lymphoblastic leukaemia', 'Epilepsy', 'Asthma', 'Meningococcal septicaemia',
    'Drowning; accident', 'Fall from height; accident', 'Glioblastoma', 'Myocarditis', 'Diabetic ketoacidosis', 'Sudden cardiac death',
  ],
  adult: [
    'Myocardial infarction', 'Ischaemic heart disease', 'Carcinoma of the lung', 'Carcinoma of the bowel', 'Carcinoma of the breast', 'Carcinoma of the pancreas',
    'Alcoholic liver disease', 'Cerebrovascular accident', 'Pulmonary embolism', 'Sepsis', 'Coronary artery atheroma', 'Motor neurone disease',
    'Carcinoma of the oesophagus', 'Lymphoma', 'Road traffic collision; accident', 'Subarachnoid haemorrhage',
  ],
  elderly: [
    'Bronchopneumonia', 'Pneumonia', 'Congestive cardiac failure', 'Ischaemic heart disease', 'Myocardial infarction', 'Cerebrovascular accident',
    'Dementia', "Alzheimer's disease", 'Frailty of old age', 'Old age', 'Chronic obstructive pulmonary disease', 'Carcinoma of the lung',
    'Carcinoma of the prostate', 'Carcinoma of the bowel', 'Renal failure', 'Sepsis', "Parkinson's disease", 'Aortic stenosis',
    'Fractured neck of femur; fall', 'Hypertensive heart disease', 'Multiple organ failure', 'Aspiration pneumonia', 'Vascular dementia', 'Heart failure',
  ],
} as const;

/** Qualifications of a doctor certifying a death. */
export const DOCTOR_QUALIFICATIONS: readonly string[] = ['MB ChB', 'MB BS', 'MB BCh', 'MRCP', 'MRCGP', 'FRCP', 'BM BCh', 'MBBS'];
